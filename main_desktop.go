//go:build desktop || bindings

package main

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/app"
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/credentials"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/service"
	"github.com/costpilot/costpilot/frontend"
	"github.com/costpilot/costpilot/headless/cli"
)

//go:embed build/appicon.png
var appIcon []byte

// started is as close to process start as Go code gets: the cold-start
// time the app logs is measured from here.
var started = time.Now()

// transportMarker is a string only the desktop UI bundle (src/api/wails.ts)
// holds; a binary that embeds the web UI would open a window that talks to
// no server.
const transportMarker = "costpilot-transport:wails"

func init() {
	cli.DefaultCommand = func([]string) int { return openWindow(windowFlags{}) }
	cli.Extra = append(cli.Extra, desktopCommand)
}

// windowFlags are the desktop command's flags (and the inherited globals).
type windowFlags struct {
	configPath, dataDir, logLevel string
	selfTest                      bool
	selfTestTimeout               time.Duration
}

func desktopCommand() *cobra.Command {
	var f windowFlags
	cmd := &cobra.Command{
		Use:   "desktop",
		Short: "Open the desktop window (the default with no command)",
		Long: `Open the costpilot window. It needs a display (DISPLAY or WAYLAND_DISPLAY) and GTK 3 with
WebKitGTK 4.1. Credentials entered in the window are kept in the OS keyring (Secret Service,
KWallet or pass), else in an encrypted file in the data dir whose passphrase comes from
` + credentials.EnvPassphrase + ` or is asked in the window.

--self-test exits once the overview has rendered data from the bindings: 0 when the shown total
matches the backend's own analysis, 1 on any error or after --self-test-timeout.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.configPath, _ = cmd.Flags().GetString("config")
			f.dataDir, _ = cmd.Flags().GetString("data-dir")
			f.logLevel, _ = cmd.Flags().GetString("log-level")
			switch code := openWindow(f); code {
			case 0:
				return nil
			case 2:
				return apperr.E(apperr.Configuration, "the window did not open")
			default:
				return errors.New("the window ended with an error")
			}
		},
	}
	cmd.Flags().BoolVar(&f.selfTest, "self-test", false, "exit 0 once the overview shows data matching the backend, else 1")
	cmd.Flags().DurationVar(&f.selfTestTimeout, "self-test-timeout", 90*time.Second, "how long the self-test waits for data")
	return cmd
}

// openWindow opens the window and returns the exit code: 0, 1 when the
// window cannot open or the self-test fails, 2 for bad configuration.
func openWindow(f windowFlags) int {
	if app.GeneratingBindings {
		return app.Run(app.Options{})
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		fmt.Fprintln(os.Stderr, "costpilot: no display (DISPLAY and WAYLAND_DISPLAY are unset), so no window can open; run `costpilot dashboard` for the web dashboard instead")
		return 1
	}
	// WebKitGTK's DMA-BUF renderer paints nothing under Xvfb and on some
	// GPUs; a user can still turn it back on by setting the variable.
	if os.Getenv("WEBKIT_DISABLE_DMABUF_RENDERER") == "" {
		_ = os.Setenv("WEBKIT_DISABLE_DMABUF_RENDERER", "1")
	}
	assets := frontend.Dist()
	if !desktopUI(assets) {
		fmt.Fprintln(os.Stderr, "costpilot: this binary embeds the web UI, not the desktop one; build it with `make desktop`")
		return 1
	}
	svc, code := openService(f)
	if svc == nil {
		return code
	}
	defer svc.Close()
	return app.Run(app.Options{Service: svc, Assets: assets, Icon: appIcon, Started: started,
		SelfTest: f.selfTest, SelfTestTimeout: f.selfTestTimeout})
}

// openService opens the Service (which registers the live connectors) with
// the OS keyring as their credential source.
func openService(f windowFlags) (*service.Service, int) {
	ctx := context.Background()
	cfg, err := service.LoadConfig(f.configPath)
	if err == nil {
		var dir string
		if dir, err = service.DataDir(f.dataDir, cfg); err == nil {
			opts := service.Options{ConfigPath: f.configPath, DataDir: dir, LogLevel: f.logLevel, Creds: openCredentials(dir)}
			if lvl := logLevel(f.logLevel); lvl != "" {
				opts.Logger = service.NewLogger(os.Stderr, lvl)
			}
			var svc *service.Service
			if svc, err = service.OpenWith(ctx, cfg, opts); err == nil {
				return svc, 0
			}
		}
	}
	if e, ok := apperr.As(err); ok && e.Kind == apperr.Configuration {
		fmt.Fprintf(os.Stderr, "costpilot: %s: %s\n", e.Kind, e.Error())
		return nil, 2
	}
	fmt.Fprintf(os.Stderr, "costpilot: %v\n", err)
	return nil, 1
}

// openCredentials opens the OS keyring. Without one the live providers
// fall back to the SDKs' own credential chains.
func openCredentials(dataDir string) provider.Credentials {
	store, err := credentials.Open(credentials.Options{Dir: filepath.Join(dataDir, "keyring"),
		Passphrase: os.Getenv(credentials.EnvPassphrase)})
	if err != nil {
		fmt.Fprintf(os.Stderr, "costpilot: %v; credentials cannot be saved in this session\n", err)
		return provider.NoCredentials{}
	}
	return store
}

func logLevel(flag string) string {
	if flag != "" {
		return flag
	}
	return os.Getenv("COSTPILOT_LOG_LEVEL")
}

// desktopUI reports whether the embedded UI is the desktop build.
func desktopUI(assets fs.FS) bool {
	found := false
	_ = fs.WalkDir(assets, "assets", func(path string, d fs.DirEntry, err error) error {
		if err != nil || found || d.IsDir() || filepath.Ext(path) != ".js" {
			return nil
		}
		if b, err := fs.ReadFile(assets, path); err == nil && bytes.Contains(b, []byte(transportMarker)) {
			found = true
		}
		return nil
	})
	return found
}
