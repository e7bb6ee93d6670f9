package main

import "errors"

// runPlayground is replaced by the real command.
func runPlayground(args []string) error { return errors.New("not built yet") }
