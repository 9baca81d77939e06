// Package createconflicts exercises creates whose conflict answer the code takes as done: // want package:"has effects"
// the API keys the experiment by its name and answers a repeat with "already exists" or
// 409 Conflict, which the function that sent the request goes on from. Twins report the
// conflict as an error, test for another answer, test before the request, or test
// nothing.
package createconflicts

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
)

const base = "https://kruize.example.com"

type answer struct {
	Message string `json:"message"`
}

// createExperiment takes "already exists" as the experiment made.
func createExperiment(name string) error {
	res, err := http.Post(base+"/createExperiment", "application/json", bytes.NewBufferString(name))
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		var a answer
		if err := json.NewDecoder(res.Body).Decode(&a); err != nil {
			return err
		}
		if strings.Contains(a.Message, "Experiment name already exists") {
			log.Print("experiment already exists")
		} else {
			return fmt.Errorf("%s", a.Message)
		}
	}
	return nil
}

// postResults takes 409 Conflict, in a switch, as the results recorded.
func postResults(name string) error {
	res, err := http.Post(base+"/updateResults", "application/json", bytes.NewBufferString(name))
	if err != nil {
		return err
	}
	defer res.Body.Close()
	switch res.StatusCode {
	case http.StatusCreated, http.StatusConflict:
		return nil
	}
	return fmt.Errorf("update results: %s", res.Status)
}

// createStrict reports the conflict as an error: the repeat fails until the job is dead.
func createStrict(name string) error {
	res, err := http.Post(base+"/createExperiment", "application/json", bytes.NewBufferString(name))
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusConflict {
		return errors.New("experiment already exists")
	}
	return nil
}

// createRetrying goes on from another answer: a repeat creates again.
func createRetrying(name string) error {
	res, err := http.Post(base+"/createExperiment", "application/json", bytes.NewBufferString(name))
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusTooManyRequests {
		log.Print("throttled")
	}
	return nil
}

// createAfterCheck tests a message it had before it sent anything.
func createAfterCheck(name, last string) error {
	if strings.Contains(last, "already exists") {
		log.Print("seen before")
	}
	_, err := http.Post(base+"/createExperiment", "application/json", bytes.NewBufferString(name))
	return err
}

// process creates the experiment and records its results: both converge.
func process(ctx context.Context, t *asynq.Task) error {
	name := string(t.Payload())
	if err := createExperiment(name); err != nil {
		return err
	}
	return postResults(name)
}

// processStrict fails on the repeat's conflict.
func processStrict(ctx context.Context, t *asynq.Task) error {
	return createStrict(string(t.Payload())) // want `handler processStrict: HTTP POST without an Idempotency-Key header`
}

// processRetrying creates again on a repeat.
func processRetrying(ctx context.Context, t *asynq.Task) error {
	return createRetrying(string(t.Payload())) // want `handler processRetrying: HTTP POST without an Idempotency-Key header`
}

// processAfterCheck creates again on a repeat.
func processAfterCheck(ctx context.Context, t *asynq.Task) error {
	return createAfterCheck(string(t.Payload()), "") // want `handler processAfterCheck: HTTP POST without an Idempotency-Key header`
}

// Register runs the handlers on the mux.
func Register(mux *asynq.ServeMux) { // want Register:`effects http.write:unprotected\(http.Post\)$`
	mux.HandleFunc("process", process)
	mux.HandleFunc("processStrict", processStrict)
	mux.HandleFunc("processRetrying", processRetrying)
	mux.HandleFunc("processAfterCheck", processAfterCheck)
}
