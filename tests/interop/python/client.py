#!/usr/bin/python3
"""A FileTransfer FileService client on Debian's python3-grpcio (the gRPC C-core stack).

Run with /usr/bin/python3 (Debian's interpreter, where apt installs python3-grpcio and
python3-grpc-tools), not a pyenv or venv python. The stubs are generated from
protos/filetransfer/v1/file_service.proto (as it is) at every start into a temporary folder
with grpc_tools.protoc, so no generated code is ever committed.

    client.py [--address HOST:PORT] [--key KEY] [--timeout SECONDS] COMMAND ...
      download NAME OUT [--offset N] [--limit N] [--if-match ETAG]
      upload PATH NAME [--chunk BYTES] [--overwrite] [--no-sha256]
      info NAME
      list [PREFIX] [--page-size N]        (follows next_page_token to the last page)
      delete NAME [--if-match ETAG]
      resume UPLOAD_ID PATH [--chunk BYTES]   (GetUploadStatus, then WriteUpload from its offset with finish)

The address defaults to $FT_GRPC_ADDRESS, then localhost:5001 ("http://" and a trailing "/" are
accepted); the key to $FT_API_KEY, sent as "authorization: Bearer KEY" (none if unset).
Prints one JSON object on stdout. Exit codes: 0 success; 1 the call failed with a gRPC status
(stdout: {"error": {code, status, message, reason, domain, metadata}}, the ErrorInfo decoded from
grpc-status-details-bin); 2 bad usage; 3 the server broke the contract or a local file failed.
"""

import argparse
import hashlib
import importlib
import json
import os
import shutil
import sys
import tempfile

import grpc
from grpc_tools import protoc

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "protos"))
RPC_PROTOS = os.path.normpath(os.path.join(HERE, "..", "protos-rpc"))
ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo"
MAX_MESSAGE = 5 * 1024 * 1024  # chunks up to 4 MiB (the server's upper bound) plus framing


class ContractError(Exception):
    """The server answered something the contract does not allow (exit 3)."""


def generate_stubs(out_dir):
    """Compiles the contract and the google.rpc subset into out_dir and imports them."""
    well_known = os.path.join(os.path.dirname(protoc.__file__), "_proto")
    sources = [
        os.path.join(PROTOS, "filetransfer", "v1", "file_service.proto"),
        os.path.join(RPC_PROTOS, "google", "rpc", "status.proto"),
        os.path.join(RPC_PROTOS, "google", "rpc", "error_details.proto"),
    ]
    arguments = ["grpc_tools.protoc", "-I" + PROTOS, "-I" + RPC_PROTOS, "-I" + well_known,
                 "--python_out=" + out_dir, "--grpc_python_out=" + out_dir] + sources
    if protoc.main(arguments) != 0:
        raise SystemExit("grpc_tools.protoc could not compile the protos")
    # google.protobuf comes from python3-protobuf, google.rpc from out_dir: "google" is a namespace
    # package (no __init__.py), so both portions import side by side.
    sys.path.insert(0, out_dir)
    return (importlib.import_module("filetransfer.v1.file_service_pb2"),
            importlib.import_module("filetransfer.v1.file_service_pb2_grpc"),
            importlib.import_module("google.rpc.status_pb2"),
            importlib.import_module("google.rpc.error_details_pb2"))


def metadata_json(m):
    return {
        "file_name": m.file_name,
        "content_type": m.content_type,
        "size": m.size,
        "last_modified": m.last_modified.ToJsonString() if m.HasField("last_modified") else None,
        "etag": m.etag,
        "sha256": m.sha256.hex(),
    }


def error_json(error, status_pb2, error_details_pb2):
    """The status code, message and ErrorInfo of a failed call, decoded from grpc-status-details-bin."""
    code = error.code()
    result = {"code": code.value[0], "status": code.name, "message": error.details(),
              "reason": None, "domain": None, "metadata": {}}
    for key, value in error.trailing_metadata() or ():
        if key != "grpc-status-details-bin":
            continue
        status = status_pb2.Status.FromString(value)
        if status.code != result["code"]:
            raise ContractError("grpc-status %d but google.rpc.Status code %d" % (result["code"], status.code))
        for detail in status.details:
            if detail.type_url == ERROR_INFO_TYPE:
                info = error_details_pb2.ErrorInfo.FromString(detail.value)
                result.update(reason=info.reason, domain=info.domain, metadata=dict(info.metadata))
    return result


def download(stub, pb, args, call):
    request = pb.DownloadFileRequest(file_name=args.name, offset=args.offset, limit=args.limit, if_match=args.if_match)
    metadata, chunk_sizes, digest, out = None, [], hashlib.sha256(), None
    try:
        for position, message in enumerate(stub.DownloadFile(request, **call)):
            kind = message.WhichOneof("data")
            if kind == "metadata":
                if position != 0:
                    raise ContractError("metadata arrived as message %d, not first" % position)
                metadata = message.metadata
                # Opened only once the server has accepted the call: a refused call writes no file.
                out = open(args.out, "wb")
            elif kind == "chunk":
                if metadata is None:
                    raise ContractError("a chunk arrived before the metadata")
                out.write(message.chunk)
                digest.update(message.chunk)
                chunk_sizes.append(len(message.chunk))
            else:
                raise ContractError("message %d carries neither metadata nor chunk" % position)
    finally:
        if out is not None:
            out.close()
    if metadata is None:
        raise ContractError("the stream ended without a metadata message")
    return {"metadata": metadata_json(metadata), "chunk_sizes": chunk_sizes,
            "bytes": sum(chunk_sizes), "sha256": digest.hexdigest()}


def upload(stub, pb, args, call):
    size = os.path.getsize(args.path)
    digest = b""
    if not args.no_sha256:
        with open(args.path, "rb") as source:
            digest = hashlib.file_digest(source, "sha256").digest()

    def messages():
        yield pb.UploadFileRequest(metadata=pb.FileMetadata(
            file_name=args.name, size=size, sha256=digest, overwrite=args.overwrite))
        with open(args.path, "rb") as source:
            while chunk := source.read(args.chunk):
                yield pb.UploadFileRequest(chunk=chunk)

    response = stub.UploadFile(messages(), **call)
    return {"metadata": metadata_json(response.metadata), "bytes": size}


def info(stub, pb, args, call):
    return {"metadata": metadata_json(stub.GetFileInfo(pb.GetFileInfoRequest(file_name=args.name), **call))}


def list_files(stub, pb, args, call):
    request = pb.ListFilesRequest(prefix=args.prefix, page_size=args.page_size)
    files, pages = [], []
    while True:
        page = stub.ListFiles(request, **call)
        files.extend(metadata_json(f) for f in page.files)
        pages.append(len(page.files))
        if not page.next_page_token:
            return {"files": files, "pages": pages}
        if len(pages) > 100_000:
            raise ContractError("next_page_token never ends")
        request.page_token = page.next_page_token


def delete(stub, pb, args, call):
    stub.DeleteFile(pb.DeleteFileRequest(file_name=args.name, if_match=args.if_match), **call)
    return {"deleted": args.name}


def resume(stub, pb, args, call):
    """Finishes a resumable upload (begun by any protocol) from the offset the server holds durably."""
    status = stub.GetUploadStatus(pb.GetUploadStatusRequest(upload_id=args.upload_id), **call)
    size = os.path.getsize(args.path)
    if status.complete or status.offset > size:
        raise ContractError("upload %s is at offset %d of a %d-byte file" % (args.upload_id, status.offset, size))

    def messages():
        with open(args.path, "rb") as source:
            source.seek(status.offset)
            yield pb.WriteUploadRequest(upload_id=args.upload_id, write_offset=status.offset, finish=status.offset == size)
            position = status.offset
            while chunk := source.read(args.chunk):
                position += len(chunk)
                yield pb.WriteUploadRequest(chunk=chunk, finish=position == size)

    done = stub.WriteUpload(messages(), **call)
    if not done.complete:
        raise ContractError("WriteUpload with finish answered an incomplete upload")
    return {"resumed_from": status.offset, "offset": done.offset, "metadata": metadata_json(done.file)}


def parse(argv):
    parser = argparse.ArgumentParser(description="FileTransfer FileService client (grpcio, C-core)")
    parser.add_argument("--address", default=os.environ.get("FT_GRPC_ADDRESS", "localhost:5001"))
    parser.add_argument("--key", default=os.environ.get("FT_API_KEY"))
    parser.add_argument("--timeout", type=float, default=60.0, help="deadline of each call, seconds")
    commands = parser.add_subparsers(dest="command", required=True)

    c = commands.add_parser("download")
    c.add_argument("name")
    c.add_argument("out")
    c.add_argument("--offset", type=int, default=0)
    c.add_argument("--limit", type=int, default=0)
    c.add_argument("--if-match", default="")
    c.set_defaults(run=download)

    c = commands.add_parser("upload")
    c.add_argument("path")
    c.add_argument("name")
    c.add_argument("--chunk", type=int, default=32 * 1024)
    c.add_argument("--overwrite", action="store_true")
    c.add_argument("--no-sha256", action="store_true")
    c.set_defaults(run=upload)

    c = commands.add_parser("info")
    c.add_argument("name")
    c.set_defaults(run=info)

    c = commands.add_parser("list")
    c.add_argument("prefix", nargs="?", default="")
    c.add_argument("--page-size", type=int, default=0)
    c.set_defaults(run=list_files)

    c = commands.add_parser("delete")
    c.add_argument("name")
    c.add_argument("--if-match", default="")
    c.set_defaults(run=delete)

    c = commands.add_parser("resume")
    c.add_argument("upload_id")
    c.add_argument("path")
    c.add_argument("--chunk", type=int, default=64 * 1024)
    c.set_defaults(run=resume)

    args = parser.parse_args(argv)
    if args.command in ("upload", "resume") and args.chunk < 1:
        parser.error("--chunk must be at least 1")
    return args


def target(address):
    for scheme in ("http://", "dns:///"):
        if address.startswith(scheme):
            address = address[len(scheme):]
    return address.rstrip("/")


def main(argv):
    args = parse(argv)
    stubs = tempfile.mkdtemp(prefix="filetransfer-pystubs-")
    try:
        pb, pb_grpc, status_pb2, error_details_pb2 = generate_stubs(stubs)
        options = [("grpc.max_receive_message_length", MAX_MESSAGE), ("grpc.max_send_message_length", MAX_MESSAGE)]
        with grpc.insecure_channel(target(args.address), options=options) as channel:
            call = {"timeout": args.timeout}
            if args.key:
                call["metadata"] = (("authorization", "Bearer " + args.key),)
            try:
                result = args.run(pb_grpc.FileServiceStub(channel), pb, args, call)
            except grpc.RpcError as error:
                failure = error_json(error, status_pb2, error_details_pb2)
                print(json.dumps({"error": failure}))
                print("%s (%d): %s [%s]" % (failure["status"], failure["code"], failure["message"], failure["reason"]), file=sys.stderr)
                return 1
            print(json.dumps(result))
            return 0
    except (ContractError, OSError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 3
    finally:
        shutil.rmtree(stubs, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
