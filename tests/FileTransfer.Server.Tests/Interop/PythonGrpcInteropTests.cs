namespace FileTransfer.Server.Tests.Interop;

/// <summary>The FileService from Debian's python3-grpcio (gRPC C-core) with stubs from python3-grpc-tools: tests/interop/python/client.py.</summary>
public sealed class PythonGrpcInteropTests() : GrpcInteropTests(GrpcInteropClient.Python);
