/* Ark adoptable-animals widget: <script src="https://{org}.{ark}/widget.js" async></script>
   Optional attributes on the script tag: data-species, data-limit (1-48). Renders into a Shadow DOM after
   the script tag, so the host page's styles and the widget's never mix. */
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
  root.innerHTML =
    '<style>:host{all:initial;display:block;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2327}' +
    '*{box-sizing:border-box}.f{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 12px}select{font:inherit;padding:8px;border:1px solid #b8c2c8;border-radius:8px;min-height:44px;background:#fff}' +
    'ul{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:12px;list-style:none;margin:0;padding:0}' +
    'li{background:#fff;border:1px solid #dde3e6;border-radius:12px;overflow:hidden}a{color:inherit;text-decoration:none;display:block}' +
    '.ph{aspect-ratio:1/1;background:#e9eef1}.ph img{width:100%;height:100%;object-fit:cover;display:block}.t{padding:8px 10px 12px}' +
    '.n{font-weight:700;color:__PRIMARY__}.m{color:#4f5b62;font-size:.9em}.more{display:inline-block;margin-top:12px;color:__PRIMARY__;font-weight:600}</style>' +
    '<div class="f"><select name="species" aria-label="' +
    T.species +
    '"><option value="">' +
    T.anySpecies +
    '</option></select>' +
    '<select name="sex" aria-label="' +
    T.sex +
    '"><option value="">' +
    T.anySex +
    '</option><option value="female">' +
    T.female +
    '</option><option value="male">' +
    T.male +
    '</option></select><select name="size" aria-label="' +
    T.size +
    '"><option value="">' +
    T.anySize +
    '</option>' +
    ['small', 'medium', 'large', 'xlarge']
      .map(function (s) {
        return '<option value="' + s + '">' + T.sizes[s] + '</option>';
      })
      .join('') +
    '</select><select name="location_id" hidden aria-label="' +
    T.location +
    '"><option value="">' +
    T.anyLocation +
    '</option></select></div><p class="s" role="status">' +
    T.loading +
    '</p><ul></ul>' +
    '<a class="more" href="' +
    origin +
    '/animals" target="_blank" rel="noopener">' +
    T.more +
    '</a>';
  var list = root.querySelector('ul');
  var status = root.querySelector('.s');
  var sp = root.querySelector('select[name=species]');
  var sx = root.querySelector('select[name=sex]');
  var sz = root.querySelector('select[name=size]');
  var lc = root.querySelector('select[name=location_id]');
  var text = function (s) {
    var d = document.createElement('div');
    d.textContent = s == null ? '' : String(s);
    return d.innerHTML;
  };
  function load() {
    var q =
      '?limit=' +
      limit +
      (sp.value
        ? '&species=' + encodeURIComponent(sp.value)
        : me.getAttribute('data-species')
          ? '&species=' + encodeURIComponent(me.getAttribute('data-species'))
          : '') +
      (sx.value ? '&sex=' + sx.value : '') +
      (sz.value ? '&size=' + sz.value : '') +
      (lc.value ? '&location_id=' + encodeURIComponent(lc.value) : '');
    status.textContent = T.loading;
    fetch(origin + '/api/public/animals' + q)
      .then(function (r) {
        if (!r.ok) throw new Error(r.status);
        return r.json();
      })
      .then(function (d) {
        if (sp.options.length === 1)
          d.species.forEach(function (s) {
            var o = document.createElement('option');
            o.value = s.toLowerCase();
            o.textContent = s.charAt(0).toUpperCase() + s.slice(1);
            sp.appendChild(o);
          });
        // A location choice only where adoptable animals are at two or more locations.
        if (lc.options.length === 1 && d.locations.length > 1) {
          d.locations.forEach(function (l) {
            var o = document.createElement('option');
            o.value = l.id;
            o.textContent = l.name;
            lc.appendChild(o);
          });
          lc.hidden = false;
        }
        status.textContent = d.total + ' ' + T.animals;
        list.innerHTML = d.results
          .map(function (a) {
            return (
              '<li><a href="' +
              text(a.url) +
              '" target="_blank" rel="noopener"><div class="ph">' +
              (a.photo
                ? '<img src="' +
                  text(a.photo.url) +
                  '" width="' +
                  a.photo.width +
                  '" height="' +
                  a.photo.height +
                  '" alt="' +
                  text(a.name) +
                  '" loading="lazy">'
                : '') +
              '</div><div class="t"><div class="n">' +
              text(a.name) +
              '</div><div class="m">' +
              text(a.breed || a.species) +
              ' · ' +
              text(a.age) +
              '</div></div></a></li>'
            );
          })
          .join('');
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
