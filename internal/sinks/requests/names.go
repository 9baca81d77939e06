// Functions whose name says they read. A client's method named QueryPayment, a helper
// named fetchSkipMeDB, a GraphQL wrapper named GetChapters: the author of the function
// says what calling it does, and a POST it makes is how the remote API takes a lookup
// (a persisted query, a body of ids to look up, an RPC envelope naming a query method),
// not a request to change something. The words are those of an RPC-style path
// (rpcRead): a reading verb first, and no writing verb or conjunction anywhere
// (getOrCreateUser, fetchAndStore).

package requests

import "slices"

// ReadingName reports whether a Go function's name says it reads: read as an RPC-style
// path's last segment is (rpcRead), its first word a reading verb (get, fetch, query, list,
// search, find, lookup, ...) and none of its words a writing verb or one that joins two
// actions.
func ReadingName(name string) bool { return rpcRead(name) }

// transportWords start the names of the functions a client sends every request through,
// whatever it does: postEnvelope, doRequest, sendSigned, execute. They say how a request
// is sent, not what it does.
var transportWords = []string{"post", "send", "do", "execute", "exec", "call", "invoke", "request", "sign"}

// WritingName reports whether a Go function's name says it changes something: its first
// word is a writing verb (create, update, delete, charge, ...) that is not one of a
// transport's (post, send, do).
func WritingName(name string) bool {
	w := identWords(name)
	return len(w) > 0 && slices.Contains(rpcWriteWords, w[0]) && !slices.Contains(transportWords, w[0])
}
