using System.ComponentModel.DataAnnotations;
using System.Diagnostics.CodeAnalysis;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core;

/// <summary>Events and their delivery, bound from the <c>Events</c> configuration section (docs/events.md).</summary>
public sealed class EventsOptions
{
    public const string SectionName = "Events";

    // MaxLengthAttribute's constructor is marked RequiresUnreferencedCode for its reflection path
    // (a collection's Count by reflection), taken only when
    // something reads the attributes by reflection (ValidateDataAnnotations, which warns itself). Nothing
    // does: EventsOptionsAttributes, generated at build time, checks them with its own copies, and
    // the AOT compiler reports no use of these attributes in the published server.
    private const string GeneratedCheck = "Checked by the generated EventsOptionsAttributes; nothing reads these attributes by reflection.";

    /// <summary>How long events are kept for watchers that resume (<c>after</c>, <c>Last-Event-ID</c>); 0 keeps none (default one day).</summary>
    [Range(0, 30 * 86_400)]
    public int RetentionSeconds { get; set; } = 86_400;

    /// <summary>This server's name in events (<c>replica</c>); default the machine's name.</summary>
    [MaxLength(200)]
    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = GeneratedCheck)]
    public string? Replica { get; set; }

    /// <summary>How often the outbox is scanned for due deliveries and, with a shared store (S3), the journal for other replicas' events.</summary>
    [Range(50, 60_000)]
    public int PollMilliseconds { get; set; } = 500;

    /// <summary>
    /// With a shared store (S3): how long a watcher holds an event back so that events raised at the
    /// same time on other replicas come first when they are older. Bounds the delay with
    /// <see cref="PollMilliseconds"/> (docs/events.md).
    /// </summary>
    [Range(0, 60_000)]
    public int SettleMilliseconds { get; set; } = 1000;

    /// <summary>How long one webhook delivery may take before it counts as failed (default 10 s).</summary>
    [Range(1, 300)]
    public int DeliveryTimeoutSeconds { get; set; } = 10;

    /// <summary>The receivers (<c>Events:Webhooks:N:Url</c>, <c>:Secret</c>, <c>:Types:M</c>, <c>:Paths:M</c>).</summary>
    public List<WebhookOptions> Webhooks { get; set; } = [];

    public TimeSpan Retention => TimeSpan.FromSeconds(RetentionSeconds);

    public TimeSpan Poll => TimeSpan.FromMilliseconds(PollMilliseconds);

    public TimeSpan Settle => TimeSpan.FromMilliseconds(SettleMilliseconds);

    public string ReplicaName => string.IsNullOrWhiteSpace(Replica) ? Environment.MachineName : Replica;
}

/// <summary>One webhook receiver.</summary>
public sealed class WebhookOptions
{
    /// <summary>Absolute http or https URL the events are posted to (from configuration only).</summary>
    public string? Url { get; set; }

    /// <summary><c>whsec_</c> and the base64 of at least 24 random bytes: the receiver verifies the signature with it.</summary>
    public string? Secret { get; set; }

    /// <summary>Only these types (<see cref="FileEventTypes"/>); empty: all.</summary>
    public List<string> Types { get; set; } = [];

    /// <summary>Only names that start with one of these (a folder ends in '/'); empty: all.</summary>
    public List<string> Paths { get; set; } = [];

    /// <summary>True when <paramref name="e"/> passes this receiver's filters.</summary>
    public bool Wants(FileEvent e) =>
        (Types.Count == 0 || Types.Contains(e.Type, StringComparer.Ordinal))
        && (Paths.Count == 0 || Paths.Exists(path => e.Name.StartsWith(path, StringComparison.Ordinal)));
}

/// <summary>The hooks that can refuse an upload, bound from the <c>Hooks</c> section (docs/events.md).</summary>
public sealed class HooksOptions
{
    public const string SectionName = "Hooks";

    /// <summary>Asked before any upload is accepted.</summary>
    public HookOptions PreUpload { get; set; } = new();

    /// <summary>Asked after every byte is verified, before the file becomes visible.</summary>
    public HookOptions PreCommit { get; set; } = new();
}

/// <summary>One hook: where it is, the secret its requests are signed with, how long it may take.</summary>
public sealed class HookOptions
{
    /// <summary>Absolute http or https URL; unset: no hook.</summary>
    public string? Url { get; set; }

    /// <summary>A <c>whsec_</c> secret, required with <see cref="Url"/>: the hook verifies requests as a webhook receiver does.</summary>
    public string? Secret { get; set; }

    /// <summary>How long the hook may take to answer (its message included) before the upload is refused as unavailable.</summary>
    [Range(1, 600_000)]
    public int TimeoutMs { get; set; } = 5000;

    public bool IsSet => !string.IsNullOrEmpty(Url);
}

/// <summary>
/// Checks the attributes of <see cref="EventsOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class EventsOptionsAttributes : IValidateOptions<EventsOptions>;
