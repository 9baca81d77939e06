// Package mail is a stub of github.com/sendgrid/sendgrid-go/helpers/mail
// v3.16.1+incompatible for the analyzer tests. It declares only what
// idemlint's models and test packages use, with the real signatures; apicheck
// keeps it in step with the real API.
package mail

// SGMailV3 is a v3 mail send request.
type SGMailV3 struct {
	Subject string `json:"subject,omitempty"`
}

// Email is a name and an address.
type Email struct {
	Name    string `json:"name,omitempty"`
	Address string `json:"email,omitempty"`
}

// NewEmail creates an Email.
func NewEmail(name string, address string) *Email { return &Email{Name: name, Address: address} }

// NewSingleEmail creates a mail to one recipient.
func NewSingleEmail(from *Email, subject string, to *Email, plainTextContent string, htmlContent string) *SGMailV3 {
	return &SGMailV3{Subject: subject}
}
