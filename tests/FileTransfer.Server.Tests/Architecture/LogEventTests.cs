using System.Reflection;
using FileTransfer.Core;
using FileTransfer.Storage.Local;
using FileTransfer.Storage.S3;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Architecture;

/// <summary>
/// A log event id names one event: every source-generated log message of the core, the backends and
/// the server has an id no other message uses, so that a log query on an id finds one kind of line
/// (the per-transfer line is defined once for both protocols).
/// </summary>
public sealed class LogEventTests
{
    private static readonly Assembly[] Assemblies =
        [typeof(FileOperations).Assembly, typeof(LocalStorageRegistration).Assembly, typeof(S3StorageRegistration).Assembly, typeof(Program).Assembly];

    [Fact]
    public void Every_Log_Event_Id_Belongs_To_One_Message()
    {
        var messages = Assemblies
            .SelectMany(a => a.GetTypes())
            .SelectMany(t => t.GetMethods(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static | BindingFlags.Instance | BindingFlags.DeclaredOnly))
            .Select(m => (Method: m, Attribute: m.GetCustomAttribute<LoggerMessageAttribute>()))
            .Where(m => m.Attribute is not null)
            .ToList();

        Assert.True(messages.Count > 20, $"only {messages.Count} log messages found");
        var shared = messages.GroupBy(m => m.Attribute!.EventId).Where(g => g.Count() > 1)
            .Select(g => $"{g.Key}: {string.Join(", ", g.Select(m => m.Method.DeclaringType!.Name + "." + m.Method.Name))}")
            .ToList();
        Assert.True(shared.Count == 0, string.Join('\n', shared));
    }
}
