package plugin

import (
	"os"
	"strconv"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func osMkdirTemp() (string, error) { return os.MkdirTemp("", "emberscope-plugin-test-") }
