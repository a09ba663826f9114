// The answer is the upload's status; with finish, complete and the stored file's metadata.
kreya.grpc.onResponse(msg => {
  const status = msg.content ?? {};
  kreya.trace(`Upload ${status.uploadId}: offset ${Number(status.offset ?? 0)}, complete ${Boolean(status.complete)}`);
});

kreya.grpc.onCallCompleted(call => {
  kreya.test('Status is OK', () => {
    if (call.status.code !== 0) {
      throw new Error(`The call ended with status ${call.status.code}.`);
    }
  });
});
