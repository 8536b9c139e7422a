// Apache ECharts, importing only the parts used. Colours come from the
// theme; when dashboard.features.interactive_charts is off the chart is a
// still picture (no tooltip, legend toggling or zoom).
import { BarChart, LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, MarkPointComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'preact/hooks';
import { useSession } from '../lib/session';
import { useTheme } from '../lib/theme';

echarts.use([BarChart, LineChart, DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, MarkPointComponent, TooltipComponent, CanvasRenderer]);

export type ChartOption = echarts.EChartsCoreOption;

/** chartColors reads the palette from the CSS variables of the theme. */
export function chartColors(): { text: string; muted: string; grid: string; bg: string } {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--text', '#1f2328'),
    muted: v('--muted', '#656d76'),
    grid: v('--border', '#d0d7de'),
    bg: v('--surface', '#ffffff'),
  };
}

/**
 * ChartPick is what a click on a chart names: the series (a bar's stack or a
 * legend item) and, for a bar, its category.
 */
export interface ChartPick {
  series: string;
  category?: string;
}

export function Chart({
  option,
  height = 320,
  label,
  onPick,
}: {
  option: ChartOption;
  height?: number;
  label: string;
  /** onPick makes bars and legend items clickable (drill-down). */
  onPick?: (p: ChartPick) => void;
}) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const theme = useTheme();
  const { features } = useSession();
  const interactive = features.interactive_charts;

  useEffect(() => {
    if (!el.current) return;
    const c = echarts.init(el.current, undefined, { renderer: 'canvas' });
    chart.current = c;
    // The browser tests find bars and legend items through the instance to
    // click them with the mouse (a canvas has no elements to locate).
    (el.current as HTMLDivElement & { echart?: echarts.ECharts }).echart = c;
    c.on('click', (p) => {
      const e = p as { seriesName?: string; name?: string };
      if (e.seriesName !== undefined) pick.current?.({ series: e.seriesName, category: e.name });
    });
    // A legend click names a group: with onPick it drills down instead of hiding the series.
    c.on('legendselectchanged', (p) => {
      const e = p as { name: string };
      if (!pick.current) return;
      c.dispatchAction({ type: 'legendSelect', name: e.name });
      pick.current({ series: e.name });
    });
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(el.current);
    return () => {
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    const colors = chartColors();
    const base: ChartOption = {
      backgroundColor: 'transparent',
      textStyle: { color: colors.text, fontFamily: 'inherit' },
      animationDuration: 300,
    };
    const merged: Record<string, unknown> = { ...base, ...option };
    if (!interactive) {
      merged.tooltip = { show: false };
      if (Array.isArray(merged.series)) {
        merged.series = (merged.series as object[]).map((s) => ({ ...s, silent: true }));
      }
      if (merged.legend) merged.legend = { ...(merged.legend as object), selectedMode: false };
    }
    c.setOption(merged, { notMerge: true });
  }, [option, theme, interactive]);

  return <div class={onPick && interactive ? 'chart pickable' : 'chart'} ref={el} style={{ height: `${height}px` }} role="img" aria-label={label} />;
}
