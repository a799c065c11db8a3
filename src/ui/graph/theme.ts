// Colour tokens for the recall graph, light and dark. Pure: unit-tested for contrast.
import type { NodeKind } from './model';

export type ThemeName = 'light' | 'dark';
export type ThemePreference = ThemeName | 'system';

export interface GraphTheme {
  name: ThemeName;
  background: string;
  /** Label text and its halo (drawn under the text so it stays readable over edges). */
  text: string;
  textMuted: string;
  halo: string;
  edge: string;
  edgeLateral: string;
  edgeAssociative: string;
  edgeTag: string;
  edgeDivergence: string;
  /** Deeper search and iterative additions: their ring and the edge from the memory that led to them. */
  found: string;
  /** Fill per node kind. */
  node: Record<NodeKind, string>;
  /** Outline around every node, to separate overlapping shapes. */
  nodeStroke: string;
  focusRing: string;
  hoverRing: string;
  /** Badge for hop numbers on associative edges. */
  badgeFill: string;
  badgeText: string;
  dimAlpha: number;
  tooltipBg: string;
  tooltipText: string;
  tooltipBorder: string;
}

export const LIGHT: GraphTheme = {
  name: 'light',
  background: '#f8fafc',
  text: '#0f172a',
  textMuted: '#475569',
  halo: 'rgba(248,250,252,0.92)',
  edge: '#94a3b8',
  edgeLateral: '#c2410c',
  edgeAssociative: '#7c3aed',
  edgeTag: '#cbd5e1',
  edgeDivergence: '#dc2626',
  found: '#0e7490',
  node: {
    query: '#0f172a',
    standard: '#2563eb',
    lateral: '#c2410c',
    associative: '#7c3aed',
    tag: '#64748b',
    alert: '#dc2626',
    recent: '#0f766e',
    entity: '#b45309',
  },
  nodeStroke: '#ffffff',
  focusRing: '#0ea5e9',
  hoverRing: '#0f172a',
  badgeFill: '#7c3aed',
  badgeText: '#ffffff',
  dimAlpha: 0.18,
  tooltipBg: '#ffffff',
  tooltipText: '#0f172a',
  tooltipBorder: '#cbd5e1',
};

export const DARK: GraphTheme = {
  name: 'dark',
  background: '#0b1120',
  text: '#e2e8f0',
  textMuted: '#94a3b8',
  halo: 'rgba(11,17,32,0.9)',
  edge: '#475569',
  edgeLateral: '#fb923c',
  edgeAssociative: '#a78bfa',
  edgeTag: '#334155',
  edgeDivergence: '#f87171',
  found: '#22d3ee',
  node: {
    query: '#f8fafc',
    standard: '#60a5fa',
    lateral: '#fb923c',
    associative: '#a78bfa',
    tag: '#94a3b8',
    alert: '#f87171',
    recent: '#2dd4bf',
    entity: '#fbbf24',
  },
  nodeStroke: '#0b1120',
  focusRing: '#38bdf8',
  hoverRing: '#f8fafc',
  badgeFill: '#a78bfa',
  badgeText: '#0b1120',
  dimAlpha: 0.2,
  tooltipBg: '#111827',
  tooltipText: '#e5e7eb',
  tooltipBorder: '#374151',
};

export const THEMES: Record<ThemeName, GraphTheme> = { light: LIGHT, dark: DARK };

/** The `theme` prop wins; 'system' (or none) follows prefers-color-scheme. */
export function resolveTheme(pref: ThemePreference | undefined, systemPrefersDark: boolean): GraphTheme {
  if (pref === 'light' || pref === 'dark') return THEMES[pref];
  return systemPrefersDark ? DARK : LIGHT;
}

/** WCAG 2.x relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const v = parseInt(m[1], 16);
  const ch = [(v >> 16) & 255, (v >> 8) & 255, v & 255].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
}

/** WCAG contrast ratio, 1..21. */
export function contrastRatio(a: string, b: string): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}
