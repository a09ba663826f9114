namespace FileTransfer.Server.Tests.Interop;

/// <summary>The FileService from @grpc/grpc-js with @grpc/proto-loader (Node.js, its own HTTP/2 stack): tests/interop/node/client.js.</summary>
public sealed class GrpcJsInteropTests() : GrpcInteropTests(GrpcInteropClient.GrpcJs);
