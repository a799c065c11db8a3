import { describe, expect, it } from 'vitest';
import { contrastRatio, DARK, LIGHT, luminance, resolveTheme, THEMES } from './theme';

describe('theme tokens', () => {
  it('computes WCAG contrast (black on white is 21:1, equal colours 1:1)', () => {
    expect(luminance('#ffffff')).toBeCloseTo(1, 6);
    expect(luminance('#000000')).toBe(0);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 6);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    // #767676 on white is the classic 4.54:1 AA boundary colour.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it('follows the theme prop first, then prefers-color-scheme', () => {
    expect(resolveTheme('dark', false)).toBe(DARK);
    expect(resolveTheme('light', true)).toBe(LIGHT);
    expect(resolveTheme('system', true)).toBe(DARK);
    expect(resolveTheme(undefined, false)).toBe(LIGHT);
  });

  for (const theme of Object.values(THEMES)) {
    it(`${theme.name}: label text meets AA (4.5:1) on the background`, () => {
      expect(contrastRatio(theme.text, theme.background)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(theme.textMuted, theme.background)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(theme.tooltipText, theme.tooltipBg)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(theme.badgeText, theme.badgeFill)).toBeGreaterThanOrEqual(4.5);
    });

    it(`${theme.name}: every node kind stands out from the background (3:1, non-text contrast)`, () => {
      for (const [kind, colour] of Object.entries(theme.node)) {
        expect(contrastRatio(colour, theme.background), kind).toBeGreaterThanOrEqual(3);
      }
      expect(contrastRatio(theme.edgeLateral, theme.background)).toBeGreaterThanOrEqual(3);
      expect(contrastRatio(theme.found, theme.background), 'found ring').toBeGreaterThanOrEqual(3);
      expect(new Set([theme.found, ...Object.values(theme.node)]).size).toBe(Object.values(theme.node).length + 1);
      expect(contrastRatio(theme.focusRing, theme.background)).toBeGreaterThanOrEqual(2.5);
    });

    it(`${theme.name}: standard, lateral and associative colours are distinct`, () => {
      const { standard, lateral, associative } = theme.node;
      expect(new Set([standard, lateral, associative]).size).toBe(3);
    });
  }
});
