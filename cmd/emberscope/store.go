package main

import "errors"

// runStore is replaced by the real command.
func runStore(args []string) error { return errors.New("not built yet") }
