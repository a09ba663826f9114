using FileTransfer.Server.Hosting;

var builder = FileTransferHost.CreateBuilder(args);
builder.AddFileTransfer();

var app = builder.Build();
app.MapFileTransfer();
app.Run();

/// <summary>Entry point; public so that tests can host it with WebApplicationFactory.</summary>
public partial class Program;
