// Package slack exercises the slack-go model: a chat post from a handler is a publish with // want package:"has effects"
// no deduplication.
package slack

import (
	"context"

	"github.com/slack-go/slack"
)

var api = slack.New("token")

// Notify posts an alert when a job fails.
//
//idemlint:handler
func Notify(ctx context.Context, channel string) error { // want Notify:`effects publish:unprotected\(\(\*slack.Client\).PostMessageContext\)`
	_, _, err := api.PostMessageContext(ctx, channel, slack.MsgOptionText("job failed", false)) // want `handler Notify: Slack message sent with no deduplication \(Notify -> \(\*slack.Client\).PostMessageContext\); missing: key, enforcement`
	return err
}
