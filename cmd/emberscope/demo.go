package main

import "errors"

// runDemo is replaced by the real command.
func runDemo(args []string) error { return errors.New("not built yet") }
