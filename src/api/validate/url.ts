// URL checks worded as the Rust `url` crate words its parse errors (Meilisearch embeds them in
// the messages of embedder, export and webhook URLs).

/** The reason `url::Url::parse` gives for an unparsable URL, or undefined when it parses. */
export function urlParseError(raw: string): string | undefined {
  // the crate, as WHATWG, ignores C0 controls and spaces around the URL
  const url = raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url)) return 'relative URL without a base';
  try {
    new URL(url);
    return undefined;
  } catch {
    const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(url);
    const authority = m?.[1] ?? '';
    const host = authority.replace(/^.*@/, '');
    if (host === '' || host.startsWith(':')) return 'empty host';
    if (host.startsWith('[')) {
      const close = host.indexOf(']');
      if (close < 0 || !/^(:\d*)?$/.test(host.slice(close + 1))) return 'invalid IPv6 address';
    }
    const port = /:([^\]:]*)$/.exec(host);
    if (port && (!/^\d*$/.test(port[1]!) || Number(port[1]) > 65535)) return 'invalid port number';
    const name = host.replace(/:\d*$/, '');
    // a host whose last label is numeric is read as an IPv4 address
    if (/(^|\.)(0x[0-9a-f]*|\d+)\.?$/i.test(name)) return 'invalid IPv4 address';
    return 'invalid international domain name';
  }
}
