namespace FileTransfer.Core;

/// <summary>
/// Folder grants: the prefixes a credential's scopes apply to (<c>Auth:ApiKeys:N:Paths:M</c>, a
/// token's paths claim). A grant is a folder, so <c>teams/a</c> and <c>teams/a/</c> are the same
/// grant, and it never reaches <c>teams/ab/</c>.
/// </summary>
public static class Grants
{
    /// <summary>
    /// <paramref name="path"/> as a folder grant (no leading '/', one trailing '/'; "" for the whole
    /// tree), or null when it is not a folder a client could name (<see cref="FileNames"/>): a grant
    /// that could say <c>..</c> or hide a separator would reach past itself.
    /// </summary>
    public static string? Normalize(string? path)
    {
        var trimmed = (path ?? "").Trim().TrimStart('/');
        if (trimmed.Length == 0)
        {
            return "";
        }

        var folder = trimmed.TrimEnd('/');
        return folder.Length > 0 && FileNames.IsValid(folder) ? folder + "/" : null;
    }

    /// <summary>True when <paramref name="name"/> lies below one of <paramref name="folders"/> (null: everywhere).</summary>
    public static bool Cover(IReadOnlyList<string>? folders, string name)
    {
        if (folders is null)
        {
            return true;
        }

        foreach (var folder in folders)
        {
            if (name.StartsWith(folder, StringComparison.Ordinal))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The folders, normalized (one that is no folder is dropped: it grants nothing), without any that lies inside another, in <see cref="NameOrder"/>; "" (the whole tree) swallows the rest.</summary>
    internal static IReadOnlyList<string> Disjoint(IEnumerable<string> folders)
    {
        var sorted = folders.Select(Normalize).OfType<string>().Order(NameOrder.Instance).ToList();
        var kept = new List<string>();
        foreach (var folder in sorted)
        {
            if (kept.Count == 0 || !folder.StartsWith(kept[^1], StringComparison.Ordinal))
            {
                kept.Add(folder);
            }
        }

        return kept;
    }
}
