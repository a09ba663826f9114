global using System.Net.Http.Json;
