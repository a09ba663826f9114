namespace FileTransfer.Server.Rest;

/// <summary>
/// The protocols an upload is sent in on REST. Where two of them share a route and method (a plain
/// upload and the draft's upload creation on <c>PUT/POST api/files/{path}</c>; tus and the draft's
/// upload resource on <c>HEAD/PATCH/DELETE api/uploads/{uploadId}</c>), each has its own endpoint,
/// marked with <see cref="UploadProtocolAttribute"/>, and routing chooses one
/// (<see cref="UploadProtocolPolicy"/>).
/// </summary>
internal enum UploadProtocol
{
    /// <summary>The request body is the whole file (<c>PUT/POST api/files/{path}</c>).</summary>
    Plain,

    /// <summary>tus 1.0.0 (<c>Tus-Resumable</c>) at <c>api/uploads</c>.</summary>
    Tus,

    /// <summary>The IETF resumable-upload draft (<c>Upload-Draft-Interop-Version</c>): creation on the target, then its upload resource.</summary>
    Draft,
}
