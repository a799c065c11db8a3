// Memories' thumbnails inside their graph nodes (pictures on memories, issue 12), drawn by drawFrame.
import { circleInBounds, type visibleBounds } from './hitTest';
import type { Scene, Transform } from './scene';

/** Below this radius on screen (CSS px) a thumbnail would be a smudge: the node's colour says enough. */
const PICTURE_MIN_RADIUS = 5;

/**
 * Each memory's thumbnail inside its node: a circle clipped a little inside the node's own shape
 * (so the kind's colour stays as a rim), the picture scaled to cover it (centre crop). Returns how
 * many were drawn.
 */
export function drawPictures(
  ctx: CanvasRenderingContext2D,
  scene: Scene,
  p: Float32Array,
  t: Transform,
  dpr: number,
  pictures: ReadonlyMap<string, ImageBitmap>,
  b: ReturnType<typeof visibleBounds>,
): number {
  const nodes = scene.model.nodes;
  let drawn = 0;
  for (let i = 0; i < nodes.length; i++) {
    const id = nodes[i].memoryId;
    const bmp = id ? pictures.get(id) : undefined;
    if (!bmp || !circleInBounds(b, p[2 * i], p[2 * i + 1], scene.radii[i])) continue;
    const r = scene.radii[i] * t.k * 0.82;
    if (r < PICTURE_MIN_RADIUS) continue;
    const cx = (p[2 * i] * t.k + t.x) * dpr;
    const cy = (p[2 * i + 1] * t.k + t.y) * dpr;
    const rr = r * dpr;
    const k = (2 * rr) / Math.min(bmp.width, bmp.height);
    const w = bmp.width * k;
    const h = bmp.height * k;
    ctx.save();
    ctx.beginPath();
    ctx.arc(cx, cy, rr, 0, Math.PI * 2);
    ctx.clip();
    ctx.drawImage(bmp, cx - w / 2, cy - h / 2, w, h);
    ctx.restore();
    drawn++;
  }
  return drawn;
}
