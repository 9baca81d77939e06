package topics

import (
	"slices"
	"testing"
)

func handlers(cs []Consumer) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Handler)
	}
	return out
}

func TestMatch(t *testing.T) {
	tb := Table(Sort([]Consumer{
		{Library: asynqLibrary, Topic: "email:", Handler: "emails"},
		{Library: asynqLibrary, Topic: "email:welcome", Handler: "welcome"},
		{Library: asynqLibrary, Topic: "report", Handler: "report"},
		{Library: natsLibrary, Topic: "orders.*", Handler: "anyOrder"},
		{Library: natsLibrary, Topic: "orders.>", Handler: "allOrders"},
		{Library: natsLibrary, Topic: "orders.created", Handler: "created"},
		{Library: "github.com/ThreeDotsLabs/watermill", Topic: "orders", Handler: "wm"},
	}))
	for _, tc := range []struct {
		lib, topic string
		want       []string
	}{
		{asynqLibrary, "email:welcome", []string{"welcome"}}, // the longest pattern alone
		{asynqLibrary, "email:reset", []string{"emails"}},
		{asynqLibrary, "reports", []string{"report"}}, // asynq patterns are prefixes
		{asynqLibrary, "rep", nil},
		{asynqLibrary, "orders", nil}, // another library's topic
		{natsLibrary, "orders.created", []string{"anyOrder", "allOrders", "created"}},
		{natsLibrary, "orders.created.eu", []string{"allOrders"}},
		{natsLibrary, "orders", nil},
		{"github.com/ThreeDotsLabs/watermill", "orders", []string{"wm"}},
		{"github.com/ThreeDotsLabs/watermill", "orders.created", nil},
	} {
		if got := handlers(tb.Match(tc.lib, tc.topic)); !slices.Equal(got, tc.want) {
			t.Errorf("Match(%s, %q) = %q, want %q", tc.lib, tc.topic, got, tc.want)
		}
	}
	if !tb.Linked([]Message{{Library: natsLibrary, Topic: "x"}, {Library: asynqLibrary, Topic: "report:daily"}}) {
		t.Error("Linked: a message to a consumer's topic is linked")
	}
	if tb.Linked([]Message{{Library: natsLibrary, Topic: "invoices.created"}}) {
		t.Error("Linked: a message no consumer takes is not linked")
	}
}
