// Walks the pages: each answer's nextPageToken becomes the user variable list_page_token, which the
// request sends as pageToken, so sending again shows the next page. The last page has no token, so
// the send after it starts over; so does a failed call (a token is only good for the listing it
// came from). Like every user variable inserted into a JSON request, it is kept escaped for a JSON
// string.
kreya.grpc.onResponse(msg => {
  const files = msg.content?.files ?? [];
  const token = msg.content?.nextPageToken ?? '';
  kreya.variables.set('list_page_token', jsonStringContent(token));
  kreya.trace(token
    ? `${files.length} files on this page; send again for the next one.`
    : `${files.length} files on the last page; the next send starts over.`);
});

kreya.grpc.onCallCompleted(call => {
  if (call.status.code !== 0) {
    kreya.variables.delete('list_page_token');
  }

  kreya.test('Status is OK', () => {
    if (call.status.code !== 0) {
      throw new Error(`The call ended with status ${call.status.code}.`);
    }
  });
});

function jsonStringContent(value) {
  return JSON.stringify(String(value)).slice(1, -1);
}
