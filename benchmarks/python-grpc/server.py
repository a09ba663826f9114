#!/usr/bin/python3
"""The gRPC reference server of the benchmark: FileService.DownloadFile and UploadFile on Debian's
python3-grpcio (the gRPC C-core stack), from the same proto and the same storage root as ours.

Run with /usr/bin/python3 (Debian's interpreter, where apt installs python3-grpcio and
python3-grpc-tools). The stubs are generated from protos/filetransfer/v1/file_service.proto at every
start into a temporary folder, as tests/interop/python/client.py does; nothing generated is committed.

    server.py --root DIR [--port 0] [--key KEY] [--chunk 32768] [--workers 300]

It serves what a plain file service in another stack does, so that ours has a reference on the
same contract: every call must carry "authorization: Bearer KEY" when --key is given (ours checks
its key too); DownloadFile sends the metadata, then the file in --chunk byte messages; UploadFile
writes the chunks to a temporary file beside the target, checks the declared size and SHA-256, and
renames it into place. Other RPCs answer UNIMPLEMENTED. Prints "Listening on http://127.0.0.1:PORT
(Http2)" once it serves, the line the harness waits for.
"""

import argparse
import concurrent.futures
import hashlib
import importlib
import os
import shutil
import sys
import tempfile

import grpc
from grpc_tools import protoc

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOS = os.path.normpath(os.path.join(HERE, "..", "..", "protos"))
MAX_MESSAGE = 5 * 1024 * 1024


def generate_stubs(out_dir):
    well_known = os.path.join(os.path.dirname(protoc.__file__), "_proto")
    source = os.path.join(PROTOS, "filetransfer", "v1", "file_service.proto")
    arguments = ["grpc_tools.protoc", "-I" + PROTOS, "-I" + well_known,
                 "--python_out=" + out_dir, "--grpc_python_out=" + out_dir, source]
    if protoc.main(arguments) != 0:
        raise SystemExit("grpc_tools.protoc could not compile the proto")
    sys.path.insert(0, out_dir)
    return (importlib.import_module("filetransfer.v1.file_service_pb2"),
            importlib.import_module("filetransfer.v1.file_service_pb2_grpc"))


def make_servicer(pb2, pb2_grpc, root, key, chunk):
    expected = ("authorization", "Bearer " + key) if key else None

    def resolve(context, name):
        path = os.path.realpath(os.path.join(root, name))
        if not path.startswith(root + os.sep):
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "The name leaves the storage root.")
        return path

    def authorize(context):
        if expected is not None and expected not in context.invocation_metadata():
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "An API key is required.")

    class FileService(pb2_grpc.FileServiceServicer):
        def DownloadFile(self, request, context):
            authorize(context)
            path = resolve(context, request.file_name)
            try:
                handle = open(path, "rb", buffering=0)
            except FileNotFoundError:
                context.abort(grpc.StatusCode.NOT_FOUND, "No such file.")
            with handle:
                size = os.fstat(handle.fileno()).st_size
                yield pb2.DownloadFileResponse(metadata=pb2.FileMetadata(
                    file_name=request.file_name, content_type="application/octet-stream", size=size))
                if request.offset:
                    handle.seek(request.offset)
                while True:
                    data = handle.read(chunk)
                    if not data:
                        return
                    yield pb2.DownloadFileResponse(chunk=data)

        def UploadFile(self, request_iterator, context):
            authorize(context)
            first = next(request_iterator, None)
            if first is None or first.WhichOneof("data") != "metadata":
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, "The first message must be the metadata.")
            metadata = first.metadata
            path = resolve(context, metadata.file_name)
            if os.path.exists(path) and not metadata.overwrite:
                context.abort(grpc.StatusCode.ALREADY_EXISTS, "The file exists.")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            digest = hashlib.sha256()
            received = 0
            handle, temp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".upload-")
            try:
                with os.fdopen(handle, "wb") as out:
                    for message in request_iterator:
                        data = message.chunk
                        digest.update(data)
                        out.write(data)
                        received += len(data)
                if metadata.size and metadata.size != received:
                    context.abort(grpc.StatusCode.INVALID_ARGUMENT, "The size differs from the declared one.")
                if metadata.sha256 and metadata.sha256 != digest.digest():
                    context.abort(grpc.StatusCode.DATA_LOSS, "The SHA-256 differs from the declared one.")
                os.replace(temp, path)
            finally:
                if os.path.exists(temp):
                    os.unlink(temp)
            return pb2.UploadFileResponse(created=True, metadata=pb2.FileMetadata(
                file_name=metadata.file_name, size=received, sha256=digest.digest()))

    return FileService()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--key", default="")
    parser.add_argument("--chunk", type=int, default=32 * 1024)
    parser.add_argument("--workers", type=int, default=300)
    args = parser.parse_args()

    stubs = tempfile.mkdtemp(prefix="ft-python-grpc-")
    try:
        pb2, pb2_grpc = generate_stubs(stubs)
        # A synchronous server: each call holds one worker thread for its whole stream, so the pool
        # must be larger than the most concurrent calls the harness makes (256).
        server = grpc.server(
            concurrent.futures.ThreadPoolExecutor(max_workers=args.workers),
            options=[("grpc.max_receive_message_length", MAX_MESSAGE),
                     ("grpc.max_send_message_length", MAX_MESSAGE)])
        pb2_grpc.add_FileServiceServicer_to_server(
            make_servicer(pb2, pb2_grpc, os.path.realpath(args.root), args.key, args.chunk), server)
        port = server.add_insecure_port("127.0.0.1:%d" % args.port)
        server.start()
        print("Listening on http://127.0.0.1:%d (Http2)" % port, flush=True)
        server.wait_for_termination()
    finally:
        shutil.rmtree(stubs, ignore_errors=True)


if __name__ == "__main__":
    main()
