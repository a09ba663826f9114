using Microsoft.Extensions.Options;

namespace FileTransfer.Core;

/// <summary>
/// What data annotations cannot say about <see cref="EventsOptions"/> and <see cref="HooksOptions"/>:
/// each URL absolute http(s), each secret a <c>whsec_</c> key, each type known. Checked at start.
/// </summary>
internal sealed class EventsOptionsValidation : IValidateOptions<EventsOptions>, IValidateOptions<HooksOptions>
{
    public ValidateOptionsResult Validate(string? name, EventsOptions options)
    {
        var failures = new List<string>();
        for (var i = 0; i < options.Webhooks.Count; i++)
        {
            var webhook = options.Webhooks[i];
            var key = $"{EventsOptions.SectionName}:Webhooks:{i}";
            CheckEndpoint(failures, key, webhook.Url, webhook.Secret);
            failures.AddRange(webhook.Types.Where(type => !FileEventTypes.IsKnown(type))
                .Select(type => $"{key}:Types has '{type}'; the types are {string.Join(", ", FileEventTypes.All)}."));
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    public ValidateOptionsResult Validate(string? name, HooksOptions options)
    {
        var failures = new List<string>();
        foreach (var (key, hook) in new[] { ("PreUpload", options.PreUpload), ("PreCommit", options.PreCommit) })
        {
            if (hook.IsSet)
            {
                CheckEndpoint(failures, $"{HooksOptions.SectionName}:{key}", hook.Url, hook.Secret);
            }

            if (hook.TimeoutMs is < 1 or > 600_000)
            {
                failures.Add($"{HooksOptions.SectionName}:{key}:TimeoutMs must be between 1 and 600000.");
            }
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private static void CheckEndpoint(List<string> failures, string key, string? url, string? secret)
    {
        if (!Uri.TryCreate(url, UriKind.Absolute, out var uri) || (uri.Scheme != Uri.UriSchemeHttp && uri.Scheme != Uri.UriSchemeHttps))
        {
            failures.Add($"{key}:Url must be an absolute http or https URL.");
        }

        if (WebhookSignature.KeyOf(secret) is null)
        {
            failures.Add($"{key}:Secret must be '{WebhookSignature.SecretPrefix}' and the base64 of at least 24 random bytes (e.g. whsec_$(openssl rand -base64 32)).");
        }
    }
}
