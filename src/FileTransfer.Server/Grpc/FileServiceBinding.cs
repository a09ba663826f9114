using FileTransfer.Protos.V1;
using Grpc.Core;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// Binds <see cref="FileGrpcService"/> exactly as the generated <c>FileService.BindService</c> does,
/// except that UploadFile and WriteUpload read their chunk messages through <see cref="UploadMessages"/>, and every
/// method's request messages go through <see cref="MalformedMessages.Guard"/>.
/// Grpc.AspNetCore finds this class through the <see cref="BindServiceMethodAttribute"/> on the
/// service; reflection reads <see cref="Descriptor"/> from it.
/// </summary>
internal static class FileServiceBinding
{
    public static Google.Protobuf.Reflection.ServiceDescriptor Descriptor => FileService.Descriptor;

    // The second parameter is the generated base class: Grpc.AspNetCore takes it as the type whose
    // virtual methods the service overrides (it is found for FileGrpcService by assignability).
    public static void BindService(ServiceBinderBase binder, FileService.FileServiceBase service) =>
        FileService.BindService(new PooledUploadBinder(binder), service);

    private sealed class PooledUploadBinder(ServiceBinderBase inner) : ServiceBinderBase
    {
        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, UnaryServerMethod<TRequest, TResponse>? handler) =>
            inner.AddMethod(Guarded(method, method.RequestMarshaller), handler);

        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ServerStreamingServerMethod<TRequest, TResponse>? handler) =>
            inner.AddMethod(Guarded(method, method.RequestMarshaller), handler);

        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, DuplexStreamingServerMethod<TRequest, TResponse>? handler) =>
            inner.AddMethod(Guarded(method, method.RequestMarshaller), handler);

        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ClientStreamingServerMethod<TRequest, TResponse>? handler)
        {
            if (method is Method<UploadFileRequest, TResponse> upload)
            {
                inner.AddMethod(Guarded(upload, UploadMessages.Marshaller), (ClientStreamingServerMethod<UploadFileRequest, TResponse>?)(object?)handler);
                return;
            }

            if (method is Method<WriteUploadRequest, TResponse> write)
            {
                inner.AddMethod(Guarded(write, UploadMessages.WriteMarshaller), (ClientStreamingServerMethod<WriteUploadRequest, TResponse>?)(object?)handler);
                return;
            }

            inner.AddMethod(Guarded(method, method.RequestMarshaller), handler);
        }

        private static Method<TRequest, TResponse> Guarded<TRequest, TResponse>(Method<TRequest, TResponse> method, Marshaller<TRequest> requests)
            where TRequest : class
            where TResponse : class =>
            new(method.Type, method.ServiceName, method.Name, MalformedMessages.Guard(requests), method.ResponseMarshaller);
    }
}
