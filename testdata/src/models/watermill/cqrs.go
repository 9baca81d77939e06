// Package watermill exercises the Watermill model: cqrs function and struct handlers, and // want package:"has effects"
// router handlers with and without the Deduplicator middleware.
package watermill

import (
	"context"
	"database/sql"
	"net/smtp"

	"github.com/ThreeDotsLabs/watermill/components/cqrs"
)

var db *sql.DB

type BookRoom struct{ ID string }

type RoomBooked struct{ ID string }

// BookRoomHandler is a cqrs.CommandHandler: its Handle method has the model's method shape.
type BookRoomHandler struct{}

func (BookRoomHandler) HandlerName() string { return "BookRoomHandler" }

func (BookRoomHandler) NewCommand() any { return &BookRoom{} }

func (BookRoomHandler) Handle(ctx context.Context, cmd any) error { // want Handle:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO bookings (id) VALUES ($1)", cmd.(*BookRoom).ID) // want `handler \(BookRoomHandler\).Handle: SQL write not safe to repeat: INSERT without conflict handling \(\(BookRoomHandler\).Handle -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
	return err
}

// CancelHandler is a command handler whose write converges.
type CancelHandler struct{}

func (CancelHandler) HandlerName() string { return "CancelHandler" }

func (CancelHandler) NewCommand() any { return &BookRoom{} }

func (CancelHandler) Handle(ctx context.Context, cmd any) error { // want Handle:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "UPDATE bookings SET cancelled = true WHERE id = $1", cmd.(*BookRoom).ID)
	return err
}

// sendConfirmation has no handler shape (func(ctx, *T) error for any T): only the
// registration through NewEventHandler makes it a handler.
func sendConfirmation(ctx context.Context, e *RoomBooked) error {
	return smtp.SendMail("localhost:25", nil, "hotel@example.com", []string{"guest@example.com"}, []byte(e.ID)) // want `handler sendConfirmation: email sent with no deduplication \(sendConfirmation -> smtp.SendMail\); missing: key, enforcement$`
}

// countBooking is the same shape, called directly and never registered: not a handler.
func countBooking(ctx context.Context, e *RoomBooked) error {
	_, err := db.ExecContext(ctx, "UPDATE stats SET bookings = bookings + 1")
	return err
}

func recordBooking(ctx context.Context, e *RoomBooked) error {
	_, err := db.ExecContext(ctx, "INSERT INTO booked (id) VALUES ($1) ON CONFLICT (id) DO NOTHING", e.ID)
	return err
}

func Wire(commands *cqrs.CommandProcessor, events *cqrs.EventProcessor, groups *cqrs.EventGroupProcessor) error { // want Wire:`effects email.send:unprotected\(smtp.SendMail\) sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	if err := commands.AddHandlers(CancelHandler{}, BookRoomHandler{}); err != nil {
		return err
	}
	if err := events.AddHandlers(cqrs.NewEventHandler("confirm", sendConfirmation)); err != nil {
		return err
	}
	_, err := commands.AddHandler(cqrs.NewCommandHandler("pay", func(ctx context.Context, cmd *BookRoom) error {
		_, err := db.ExecContext(ctx, "INSERT INTO payments (booking_id) VALUES ($1)", cmd.ID) // want `handler func literal in Wire: SQL write not safe to repeat: INSERT without conflict handling \(func literal in Wire -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
		return err
	}))
	if err != nil {
		return err
	}
	return groups.AddHandlersGroup("bookings",
		cqrs.NewGroupEventHandler(recordBooking),
		cqrs.NewGroupEventHandler(func(ctx context.Context, e *RoomBooked) error {
			return countBooking(ctx, e) // want `handler func literal in Wire: SQL write not safe to repeat: relative UPDATE of bookings \(func literal in Wire -> watermill.countBooking -> \(\*sql.DB\).ExecContext\)`
		}),
	)
}
