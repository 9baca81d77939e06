// Package presencegates exercises an existence check made only when the message carries a // want package:"has effects"
// key: it guards what follows the if that tests for the key, and nothing when another
// condition (a setting) decides, or when the if has an else.
package presencegates

import (
	"context"
	"log"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
)

func charge(orderID string) error {
	_, err := http.Post("https://pay.example.com/charges", "text/plain", strings.NewReader(orderID))
	return err
}

// Cache remembers the keys of handled messages.
type Cache struct{ keys map[string]bool }

// IsExist says whether key was recorded.
func (c *Cache) IsExist(ctx context.Context, key string) (bool, error) { return c.keys[key], nil }

// Set records key.
func (c *Cache) Set(ctx context.Context, key string) error { c.keys[key] = true; return nil }

var seen *Cache

// IfKeyed checks the message's key only when it carries one (a broker's message id), and
// returns when it was seen: the charge after the check is claimed.
func IfKeyed(ctx context.Context, t *asynq.Task) error { // want IfKeyed:`effects http.write:claimed\(http.Post\)`
	id := t.ResultWriter().TaskID()
	key := "charged:" + id
	if id != "" {
		exists, err := seen.IsExist(ctx, key)
		if err != nil {
			log.Printf("check %s: %v", key, err)
		}
		if exists {
			return nil
		}
	}
	if err := charge(string(t.Payload())); err != nil {
		return err
	}
	return seen.Set(ctx, key)
}

// IfEnabled checks the key only when a setting says so: when it is off, every redelivery
// charges again.
func IfEnabled(ctx context.Context, t *asynq.Task) error { // want IfEnabled:`effects http.write:unprotected\(http.Post\)`
	id := t.ResultWriter().TaskID()
	if dedupe {
		if exists, _ := seen.IsExist(ctx, id); exists {
			return nil
		}
	}
	return charge(string(t.Payload())) // want `^handler IfEnabled: HTTP POST`
}

// IfKeyedElse checks the key when there is one, and does something else when there is not:
// the check guards only its own branch.
func IfKeyedElse(ctx context.Context, t *asynq.Task) error { // want IfKeyedElse:`effects http.write:unprotected\(http.Post\)`
	id := t.ResultWriter().TaskID()
	if id != "" {
		if exists, _ := seen.IsExist(ctx, id); exists {
			return nil
		}
	} else {
		log.Print("no id")
	}
	return charge(string(t.Payload())) // want `^handler IfKeyedElse: HTTP POST`
}

var dedupe = true
