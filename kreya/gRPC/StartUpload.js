// The upload id becomes the user variable grpc_upload_id, which GetUploadStatus, WriteUpload and
// CancelUpload send.
kreya.grpc.onResponse(msg => {
  const status = msg.content ?? {};
  kreya.variables.set('grpc_upload_id', String(status.uploadId ?? ''));
  kreya.trace(`Upload ${status.uploadId} of ${status.fileName}: offset ${Number(status.offset ?? 0)}, expires ${status.expiresAt}`);
});

kreya.grpc.onCallCompleted(call => {
  kreya.test('Status is OK', () => {
    if (call.status.code !== 0) {
      throw new Error(`The call ended with status ${call.status.code}.`);
    }
  });
});
