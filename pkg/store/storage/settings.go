// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package storage

import (
	"errors"

	"github.com/cockroachdb/pebble/v2"
)

// tableSettings holds small named records kept with the profiles, such as
// each tenant's recording rules: the key is the setting's name, the value
// is opaque to this package.
const tableSettings byte = 'R'

func settingKey(name string) []byte { return append([]byte{tableSettings}, name...) }

// Setting returns the stored value of the setting name; ok is false when it
// was never set.
func (db *DB) Setting(name string) (value []byte, ok bool, err error) {
	v, closer, err := db.pdb.Get(settingKey(name))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer closer.Close()
	return append([]byte(nil), v...), true, nil
}

// PutSetting stores value as the setting name, synced to the write-ahead log
// before it returns.
func (db *DB) PutSetting(name string, value []byte) error {
	if err := db.faults.failed(); err != nil {
		return err
	}
	return db.pdb.Set(settingKey(name), value, pebble.Sync)
}

// ScanSettings calls fn with every setting whose name starts with prefix, in
// name order.
func (db *DB) ScanSettings(prefix string, fn func(name string, value []byte) error) error {
	lo := settingKey(prefix)
	it, err := db.pdb.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: prefixEnd(lo)})
	if err != nil {
		return err
	}
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		if err := fn(string(it.Key()[1:]), it.Value()); err != nil {
			return err
		}
	}
	return it.Error()
}
