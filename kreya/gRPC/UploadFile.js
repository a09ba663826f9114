// The answer is the stored file's metadata. Its ETag becomes the user variable grpc_upload_etag,
// which DeleteFile sends as if_match. Kreya inserts {{ vars.x }} into the request text as it is,
// and a strong ETag carries its own double quotes (RFC 9110 8.8.3), so the value is kept escaped
// for a JSON string.
kreya.grpc.onResponse(msg => {
  const stored = msg.content?.metadata ?? {};
  kreya.variables.set('grpc_upload_etag', jsonStringContent(stored.etag ?? ''));
  kreya.trace(`Stored ${stored.fileName}: ${Number(stored.size ?? 0)} bytes, ETag ${stored.etag}`);
});

kreya.grpc.onCallCompleted(call => {
  kreya.test('Status is OK', () => {
    if (call.status.code !== 0) {
      throw new Error(`The call ended with status ${call.status.code}.`);
    }
  });
});

function jsonStringContent(value) {
  return JSON.stringify(String(value)).slice(1, -1);
}
