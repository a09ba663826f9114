namespace FileTransfer.Core;

/// <summary>
/// One version of a file as its backend knows it. Everything a client is told about a version
/// (size, time, ETag, digest) comes from one of these, taken from one look at the medium: a
/// download describes exactly the bytes it sends.
/// </summary>
/// <param name="Name">Name relative to the root, '/' separated: what clients call it.</param>
/// <param name="Size">Size in bytes.</param>
/// <param name="LastModified">When this version was stored.</param>
/// <param name="ETag">
/// Strong entity tag, quoted (<c>"..."</c>): it changes whenever the bytes do (RFC 9110 8.8.3). The
/// backend owns it: the local disk derives it from size and time, an object store uses its own.
/// </param>
/// <param name="Sha256">The SHA-256 of this version when the backend already knows it, else null.</param>
public sealed record StoredObject(string Name, long Size, DateTimeOffset LastModified, string ETag, byte[]? Sha256 = null);
