package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// usageError marks bad usage (exit 2 and a pointer to --help). Every
// usage check cobra makes is routed to it by typedUsage, so report
// decides by type, never by cobra's wording.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// typedUsage makes every usage failure cobra detects a usageError: flag
// parsing (through the flag error func), positional arguments (each
// command's Args, wrapped), required flags and flag groups (checked in a
// PreRunE before cobra's own identical checks) and unknown commands (the
// root's Args, which replaces cobra's built-in check). Call it when the
// tree is complete.
func typedUsage(root *cobra.Command) {
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err.Error()} })
	root.Args = unknownCommand
	if root.Run == nil && root.RunE == nil {
		// Runnable, so the root checks its arguments (a non-runnable
		// command only prints its help); with none it prints the help,
		// as before.
		root.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if args := c.Args; args != nil {
			c.Args = func(cmd *cobra.Command, a []string) error { return asUsage(args(cmd, a)) }
		}
		if c.Runnable() {
			pre := c.PreRunE
			c.PreRunE = func(cmd *cobra.Command, a []string) error {
				if err := asUsage(cmd.ValidateRequiredFlags()); err != nil {
					return err
				}
				if err := asUsage(cmd.ValidateFlagGroups()); err != nil {
					return err
				}
				if pre != nil {
					return pre(cmd, a)
				}
				return nil
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// unknownCommand is the root's argument check: it takes none, so any
// argument is a command it does not know. The words are cobra's.
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2 // cobra's default, which only its own check sets
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t") + "\n"
	}
	return usageError{msg}
}

func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err.Error()}
}
