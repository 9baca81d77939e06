// Package endpaths exercises POSTs to actions that end what they name: stopping a mailbox // want package:"has effects"
// watch and revoking its token on a disconnect, done once, are found done by a repeat.
// Their twin starts the watch again, which a repeat does twice.
package endpaths

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/hibiken/asynq"
)

func post(ctx context.Context, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, nil)
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(req)
	return err
}

// disconnect stops the watch and revokes the token.
func disconnect(ctx context.Context, t *asynq.Task) error {
	if err := post(ctx, "https://gmail.googleapis.com/gmail/v1/users/me/stop"); err != nil {
		return err
	}
	_, err := http.PostForm("https://oauth2.googleapis.com/revoke", url.Values{"token": {string(t.Payload())}})
	return err
}

// cancelOperation cancels a long-running operation by its custom method.
func cancelOperation(ctx context.Context, t *asynq.Task) error {
	return post(ctx, "https://longrunning.googleapis.com/v1/operations/"+string(t.Payload())+":cancel")
}

// reconnect starts a watch: a repeat starts a second one.
func reconnect(ctx context.Context, t *asynq.Task) error {
	_, err := http.Post("https://gmail.googleapis.com/gmail/v1/users/me/watch", "application/json", strings.NewReader(string(t.Payload()))) // want `handler reconnect: HTTP POST without an Idempotency-Key header \(this call cannot set one\)`
	return err
}

// Register runs the handlers on the mux.
func Register(mux *asynq.ServeMux) { // want Register:`effects http.write:unprotected\(http.Post\)$`
	mux.HandleFunc("disconnect", disconnect)
	mux.HandleFunc("cancel", cancelOperation)
	mux.HandleFunc("reconnect", reconnect)
}
