import { safeUrl } from '../../io';

/**
 * A memory's source: a link only when safeUrl allows it (http, https, mailto), else plain text, so
 * a javascript: or data: source imported from a file can never be followed.
 */
export function SourceLink({ source }: { source: string }) {
  const href = safeUrl(source);
  if (!href) return <>{source}</>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {source}
    </a>
  );
}
