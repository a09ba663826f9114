namespace FileTransfer.Server.Storage;

/// <summary>A client-supplied name that passed every rule, and where it lives on disk.</summary>
/// <param name="Name">Normalised name relative to the root, '/' separated: the name clients see.</param>
/// <param name="FullPath">Absolute path under the storage root.</param>
internal sealed record StoragePath(string Name, string FullPath);
