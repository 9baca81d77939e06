// Package slack is the application's own client of a chat webhook, in another package: its // want package:"has effects"
// one POST reaches the handlers of package rootcause through its fact.
package slack

import (
	"context"
	"net/http"
	"strings"
)

var client = &http.Client{}

// Post sends a message to the team's channel.
func Post(ctx context.Context, text string) error { // want Post:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://hooks.slack.example.com/T0/B0", strings.NewReader(text))
	_, err := client.Do(req)
	return err
}
