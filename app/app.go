//go:build desktop || bindings

package app

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/logger"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/costpilot/costpilot/backend/service"
)

// Options are what main gives the window.
type Options struct {
	Service         *service.Service
	Assets          fs.FS  // the built UI (VITE_TARGET=wails)
	Icon            []byte // PNG
	Started         time.Time
	SelfTest        bool          // exit once the overview rendered data: 0 if it matches the Service, else 1
	SelfTestTimeout time.Duration // the self-test fails after this long
}

// window is the running app's lifecycle state.
type window struct {
	b      *Bindings
	opt    Options
	state  windowState
	ctx    context.Context
	cancel context.CancelFunc

	mu   sync.Mutex
	exit int
}

// Run opens the window and returns the process exit code once it closes.
// In the bindings build it only writes frontend/wailsjs.
func Run(o Options) int {
	b := NewBindings(o.Service, o.Started)
	w := &window{b: b, opt: o, state: windowState{Width: defaultWidth, Height: defaultHeight}}
	if o.Service != nil {
		w.state = loadWindowState(o.Service.DataDirPath())
		// The window's start refreshes export folders and demo history;
		// bound calls wait for it, so the first page reads all of it.
		b.ready = make(chan struct{})
		go func() {
			defer close(b.ready)
			if err := o.Service.Refresh(context.Background()); err != nil {
				o.Service.Logger().Warn("refresh at start failed; showing the stored history", "err", err)
			}
		}()
	}
	if o.SelfTest {
		b.selfTest = newSelfTest()
		w.exit = 1 // until the self-test passes
	}
	start := options.Normal
	if w.state.Maximised {
		start = options.Maximised
	}
	err := wails.Run(&options.App{
		Title:              "costpilot",
		Width:              w.state.Width,
		Height:             w.state.Height,
		MinWidth:           minWidth,
		MinHeight:          minHeight,
		WindowStartState:   start,
		BackgroundColour:   &options.RGBA{R: 246, G: 247, B: 249, A: 255},
		AssetServer:        &assetserver.Options{Assets: o.Assets, Handler: assetHandler(b)},
		Menu:               w.menu(),
		Logger:             logger.NewDefaultLogger(),
		LogLevel:           logger.WARNING,
		LogLevelProduction: logger.ERROR,
		OnStartup:          w.startup,
		OnBeforeClose:      w.beforeClose,
		OnShutdown:         w.shutdown,
		Bind:               []any{b},
		ErrorFormatter:     ErrorFormatter,
		Linux: &linux.Options{
			Icon:        o.Icon,
			ProgramName: "costpilot",
			// Software rendering: GPU compositing paints nothing under Xvfb
			// and on some drivers (wails#2977).
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "costpilot: the window failed: %v\n", err)
		return 1
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.exit
}

// startup runs once the window exists: the bindings get the app's context
// and the real shell, and the window its remembered place. (Wails itself
// closes the window on SIGINT and SIGTERM, through beforeClose.)
func (w *window) startup(ctx context.Context) {
	w.ctx, w.cancel = context.WithCancel(ctx)
	w.b.ctx, w.b.shell = w.ctx, runtimeShell{ctx: ctx}
	if w.state.Placed && !w.state.Maximised {
		runtime.WindowSetPosition(ctx, w.state.X, w.state.Y)
	}
	if w.b.selfTest != nil {
		go w.watchSelfTest()
	} else {
		// Scheduled refreshes, live syncs, alert delivery and metrics, as
		// the dashboard does.
		go w.b.svc.RunBackground(w.ctx)
	}
}

// watchSelfTest ends a self-test run with the first render's verdict, or
// with a failure when nothing rendered in time.
func (w *window) watchSelfTest() {
	log := w.b.svc.Logger()
	select {
	case c := <-w.b.selfTest.done:
		w.setExit(map[bool]int{true: 0, false: 1}[c.OK])
		log.Info("self-test finished", "ok", c.OK, "startup_ms", c.StartupMs, "detail", c.Message)
	case <-time.After(w.opt.SelfTestTimeout):
		w.setExit(1)
		log.Error("self-test failed: the overview rendered no data in time", "limit", w.opt.SelfTestTimeout)
	case <-w.ctx.Done():
		return
	}
	w.quit()
}

func (w *window) setExit(code int) {
	w.mu.Lock()
	w.exit = code
	w.mu.Unlock()
}

// quit closes the window; Wails calls beforeClose first.
func (w *window) quit() { runtime.Quit(w.ctx) }

// beforeClose remembers the window's size and place while it still exists.
func (w *window) beforeClose(context.Context) bool {
	w.saveState()
	return false
}

func (w *window) saveState() {
	if w.b.svc == nil || w.ctx == nil {
		return
	}
	st := windowState{Maximised: runtime.WindowIsMaximised(w.ctx)}
	if st.Maximised {
		// Keep the size to restore to when it is unmaximised.
		st.Width, st.Height, st.X, st.Y, st.Placed = w.state.Width, w.state.Height, w.state.X, w.state.Y, w.state.Placed
	} else {
		st.Width, st.Height = runtime.WindowGetSize(w.ctx)
		st.X, st.Y = runtime.WindowGetPosition(w.ctx)
		st.Placed = os.Getenv("WAYLAND_DISPLAY") == "" // Wayland never tells a window where it is
	}
	if st.Width < minWidth || st.Height < minHeight {
		return
	}
	if err := saveWindowState(w.b.svc.DataDirPath(), st); err != nil {
		w.b.svc.Logger().Warn("cannot remember the window's size", "err", err)
	}
}

func (w *window) shutdown(context.Context) {
	if w.cancel != nil {
		w.cancel()
	}
}
