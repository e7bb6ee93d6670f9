package storage

// Salvage is filled in below.
func Salvage(opts Options) error { return salvage(opts) }
