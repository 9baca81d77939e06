// Package dupchecks exercises a Redis SETNX claim made in a helper that answers whether the // want package:"has effects"
// message is a duplicate (the claim's negation: `return !res, nil`), checked in the else-if
// of a test of the claim's error: `if err != nil { log } else if dup { return nil }`. What
// follows the chain runs once per message. Twins test something else in the else-if, go
// on from a duplicate, or put the claim's test behind another condition than its error.
package dupchecks

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

func notify(id string) error {
	_, err := http.Post("https://chat.example.com/notify", "text/plain", strings.NewReader(id))
	return err
}

// isDuplicate claims the message id; it reports a duplicate when the key was there.
func isDuplicate(ctx context.Context, id string) (bool, error) {
	if id == "" {
		return false, nil
	}
	res, err := rdb.SetNX(ctx, fmt.Sprintf("dedup:%s", id), "1", 24*time.Hour).Result()
	if err != nil {
		return false, err
	}
	return !res, nil
}

// process leaves on a duplicate; a claim that failed with an error is only logged.
func process(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	isDup, err := isDuplicate(ctx, id)
	if err != nil {
		log.Print(err)
	} else if isDup {
		return nil
	}
	return notify(id)
}

// processReturning returns the claim's error in the first branch.
func processReturning(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	if isDup, err := isDuplicate(ctx, id); err != nil {
		return err
	} else if isDup {
		return nil
	}
	return notify(id)
}

// processLogged only logs a duplicate, and notifies again.
func processLogged(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	isDup, err := isDuplicate(ctx, id)
	if err != nil {
		log.Print(err)
	} else if isDup {
		log.Print("duplicate")
	}
	return notify(id) // want `handler processLogged: HTTP POST without an Idempotency-Key header`
}

// processOther leaves on something else than the claim.
func processOther(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	_, err := isDuplicate(ctx, id)
	if err != nil {
		log.Print(err)
	} else if id == "test" {
		return nil
	}
	return notify(id) // want `handler processOther: HTTP POST without an Idempotency-Key header`
}

// processUnlessEmpty tests the claim only when another condition is false: a long id goes
// on unchecked, and that condition is no error of the claim's.
func processUnlessEmpty(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	isDup, _ := isDuplicate(ctx, id)
	if len(id) > 64 {
		log.Print("long id")
	} else if isDup {
		return nil
	}
	return notify(id) // want `handler processUnlessEmpty: HTTP POST without an Idempotency-Key header`
}

// processEach claims each message a listing returned, and skips the duplicates.
func processEach(ctx context.Context, t *asynq.Task) error {
	for _, id := range strings.Split(string(t.Payload()), ",") {
		isDup, err := isDuplicate(ctx, id)
		if err != nil {
			log.Print(err)
		} else if isDup {
			continue
		}
		if err := notify(id); err != nil {
			log.Print(err)
		}
	}
	return nil
}

// processListed claims each message a mailbox listing returned.
func processListed(ctx context.Context, t *asynq.Task) error {
	resp, err := http.Get("https://mail.example.com/messages?after=" + string(t.Payload()))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var list struct{ Messages []struct{ ID string } }
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		return err
	}
	for _, m := range list.Messages {
		isDup, err := isDuplicate(ctx, m.ID)
		if err != nil {
			log.Print(err)
		} else if isDup {
			continue
		}
		if err := notify(m.ID); err != nil {
			log.Print(err)
		}
	}
	return nil
}

// Register runs the handlers on the mux.
func Register(mux *asynq.ServeMux) { // want Register:`effects http.write:unprotected\(http.Post\)$`
	mux.HandleFunc("process", process)
	mux.HandleFunc("processReturning", processReturning)
	mux.HandleFunc("processLogged", processLogged)
	mux.HandleFunc("processOther", processOther)
	mux.HandleFunc("processUnlessEmpty", processUnlessEmpty)
	mux.HandleFunc("processEach", processEach)
	mux.HandleFunc("processListed", processListed)
}
