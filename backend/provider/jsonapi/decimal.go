package jsonapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/costpilot/costpilot/backend/model"
)

// Decimal is an amount as the API wrote it, a JSON number or a decimal
// string, kept as text so it is read exactly (never through float64).
// null and absent are "".
type Decimal string

// UnmarshalJSON keeps a number's or a string's text.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*d = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*d = Decimal(s)
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("amount %s is not a number", clip(string(b), 40))
		}
		*d = Decimal(n)
	}
	return nil
}

// Nanos is the amount in currency units, as nanos; "" is zero.
func (d Decimal) Nanos() (model.Nanos, error) {
	if d == "" {
		return 0, nil
	}
	return model.ParseNanos(string(d))
}

// Cents is an amount given in cents (hundredths of the unit, with
// decimals), as nanos of the unit, rounded half away from zero.
func (d Decimal) Cents() (model.Nanos, error) {
	if d == "" {
		return 0, nil
	}
	// ParseNanos first: it refuses what is not a plain decimal number
	// (big.Rat would take "1/3").
	if _, err := model.ParseNanos(string(d)); err != nil {
		return 0, err
	}
	r, ok := new(big.Rat).SetString(string(d))
	if !ok {
		return 0, fmt.Errorf("invalid amount %q", string(d))
	}
	return model.ParseNanos(r.Quo(r, big.NewRat(100, 1)).FloatString(9))
}

// BadAnswer is the failure of an answer whose content cannot be read (an
// amount that is no number…): the API is not answering as documented.
func BadAnswer(c *Client, path string, err error) error {
	op := "GET " + path
	return c.fail(op, model.FailureUnreachable, "", "unexpected answer: "+clip(err.Error(), 200), err)
}
