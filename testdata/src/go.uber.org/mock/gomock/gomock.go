// Package gomock is a stub of go.uber.org/mock/gomock: the controller a mockgen mock holds,
// by which idemlint knows a mock generated into a package's own files.
package gomock

// Controller is the stub of the mock controller.
type Controller struct{}

// Finish checks that every expected call was made.
func (ctrl *Controller) Finish() { panic("stub") }
