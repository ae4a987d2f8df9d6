/* Ark adoptable-animals widget: <script src="https://{org}.{ark}/widget.js" async></script>
   Optional attributes on the script tag: data-species, data-limit (1-48). Renders into a Shadow DOM after
   the script tag, so the host page's styles and the widget's never mix.
   Every element is made with createElement and every value goes in through textContent or setAttribute,
   never through HTML text: an animal's name is data, whatever characters it holds, on every site that
   embeds the widget. Links and pictures are used only when they are http(s) addresses. */
(function () {
  var me = document.currentScript;
  if (!me) return;
  var origin = new URL(me.src).origin;
  var limit = Math.min(48, Math.max(1, parseInt(me.getAttribute('data-limit') || '12', 10) || 12));
  var host = document.createElement('div');
  host.setAttribute('data-ark-widget', '');
  me.parentNode.insertBefore(host, me.nextSibling);
  var root = host.attachShadow({ mode: 'open' });
  var T = __STRINGS__;

  /** An element with attributes and children (strings become text nodes). */
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs)
      Object.keys(attrs).forEach(function (k) {
        if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, String(attrs[k]));
      });
    (children || []).forEach(function (c) {
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return e;
  }
  function str(v) {
    return v === null || v === undefined ? '' : String(v);
  }
  /** An absolute http(s) address, or null (a `javascript:` or other scheme is never used). */
  function web(v) {
    try {
      var u = new URL(str(v), origin);
      return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
    } catch (e) {
      return null;
    }
  }
  function option(value, label) {
    var o = el('option', { value: value });
    o.textContent = str(label);
    return o;
  }
  function select(name, label, anyLabel, options) {
    var s = el('select', { name: name, 'aria-label': label }, [option('', anyLabel)]);
    (options || []).forEach(function (o) {
      s.appendChild(o);
    });
    return s;
  }

  var style = document.createElement('style');
  style.textContent =
    ':host{all:initial;display:block;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2327}' +
    '*{box-sizing:border-box}.f{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 12px}select{font:inherit;padding:8px;border:1px solid #b8c2c8;border-radius:8px;min-height:44px;background:#fff}' +
    'ul{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:12px;list-style:none;margin:0;padding:0}' +
    'li{background:#fff;border:1px solid #dde3e6;border-radius:12px;overflow:hidden}a{color:inherit;text-decoration:none;display:block}' +
    '.ph{aspect-ratio:1/1;background:#e9eef1}.ph img{width:100%;height:100%;object-fit:cover;display:block}.t{padding:8px 10px 12px}' +
    '.n{font-weight:700;color:__PRIMARY__}.m{color:#4f5b62;font-size:.9em}.more{display:inline-block;margin-top:12px;color:__PRIMARY__;font-weight:600}';
  var sp = select('species', T.species, T.anySpecies);
  var sx = select('sex', T.sex, T.anySex, [option('female', T.female), option('male', T.male)]);
  var sz = select(
    'size',
    T.size,
    T.anySize,
    ['small', 'medium', 'large', 'xlarge'].map(function (s) {
      return option(s, T.sizes[s]);
    }),
  );
  var lc = select('location_id', T.location, T.anyLocation);
  lc.hidden = true;
  var status = el('p', { class: 's', role: 'status' }, [T.loading]);
  var list = el('ul');
  var more = el('a', { class: 'more', href: origin + '/animals', target: '_blank', rel: 'noopener' }, [T.more]);
  root.appendChild(style);
  root.appendChild(el('div', { class: 'f' }, [sp, sx, sz, lc]));
  root.appendChild(status);
  root.appendChild(list);
  root.appendChild(more);

  function card(a) {
    var ph = el('div', { class: 'ph' });
    var src = a.photo ? web(a.photo.url) : null;
    if (src) {
      ph.appendChild(
        el('img', {
          src: src,
          width: Number(a.photo.width) || null,
          height: Number(a.photo.height) || null,
          alt: str(a.name),
          loading: 'lazy',
        }),
      );
    }
    var text = el('div', { class: 't' }, [
      el('div', { class: 'n' }, [str(a.name)]),
      el('div', { class: 'm' }, [str(a.breed || a.species) + ' · ' + str(a.age)]),
    ]);
    return el('li', null, [el('a', { href: web(a.url), target: '_blank', rel: 'noopener' }, [ph, text])]);
  }

  function load() {
    var q =
      '?limit=' +
      limit +
      (sp.value
        ? '&species=' + encodeURIComponent(sp.value)
        : me.getAttribute('data-species')
          ? '&species=' + encodeURIComponent(me.getAttribute('data-species'))
          : '') +
      (sx.value ? '&sex=' + encodeURIComponent(sx.value) : '') +
      (sz.value ? '&size=' + encodeURIComponent(sz.value) : '') +
      (lc.value ? '&location_id=' + encodeURIComponent(lc.value) : '');
    status.textContent = T.loading;
    fetch(origin + '/api/public/animals' + q)
      .then(function (r) {
        if (!r.ok) throw new Error(r.status);
        return r.json();
      })
      .then(function (d) {
        if (sp.options.length === 1)
          (d.species || []).forEach(function (s) {
            s = str(s);
            sp.appendChild(option(s.toLowerCase(), s.charAt(0).toUpperCase() + s.slice(1)));
          });
        // A location choice only where adoptable animals are at two or more locations.
        if (lc.options.length === 1 && d.locations && d.locations.length > 1) {
          d.locations.forEach(function (l) {
            lc.appendChild(option(str(l.id), l.name));
          });
          lc.hidden = false;
        }
        status.textContent = str(d.total) + ' ' + T.animals;
        list.replaceChildren.apply(list, (d.results || []).map(card));
      })
      .catch(function () {
        status.textContent = T.error;
      });
  }
  sp.addEventListener('change', load);
  sx.addEventListener('change', load);
  sz.addEventListener('change', load);
  lc.addEventListener('change', load);
  load();
})();
