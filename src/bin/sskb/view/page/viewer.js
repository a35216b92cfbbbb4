// The viewer: one model in 3D, its pieces as a list, live while its file
// is edited. Data from the server (see src/bin/sskb/view/routes.rs):
// /api/events?path= (server-sent events: the model's state), /api/model
// (the piece list) and /api/mesh (the binary mesh message of build.rs).
import * as THREE from './three.module.min.js';
import { OrbitControls } from './OrbitControls.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

const COLORS = {
  solid: 0x8fb3d9,
  highlight: 0xf0a030,
  subtract: 0xd9534f,
  intersect: 0xe6a23c,
  cut: 0xb85c4a,
  background: 0xf3f4f6,
};

// ---- three.js scene -------------------------------------------------------

const host = $('view');
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio || 1);
renderer.localClippingEnabled = true;
renderer.autoClear = false;
host.prepend(renderer.domElement);

const scene = new THREE.Scene();
scene.background = new THREE.Color(COLORS.background);
const camera = new THREE.PerspectiveCamera(35, 1, 0.01, 1e7);
camera.up.set(0, 0, 1);
camera.position.set(1, -1.4, 0.9);
scene.add(camera);
scene.add(new THREE.HemisphereLight(0xffffff, 0x667080, 1.6));
const lamp = new THREE.DirectionalLight(0xffffff, 2.2);
lamp.position.set(0.4, 0.6, 1);
camera.add(lamp);

const controls = new OrbitControls(camera, renderer.domElement);
controls.enableDamping = false;
controls.screenSpacePanning = true;
controls.addEventListener('change', () => requestRender());

const model = new THREE.Group();
scene.add(model);
const helpers = new THREE.Group();
scene.add(helpers);

// The corner gizmo: the file's axes as the camera sees them.
const gizmo = new THREE.Scene();
gizmo.add(new THREE.AxesHelper(1));
const gizmoCamera = new THREE.OrthographicCamera(-1.6, 1.6, 1.6, -1.6, 0.1, 10);
gizmoCamera.up.set(0, 0, 1);
const GIZMO = 96;

const clipPlane = new THREE.Plane(new THREE.Vector3(0, 0, -1), 0);
const materials = {
  solid: new THREE.MeshStandardMaterial({
    color: COLORS.solid, flatShading: true, metalness: 0.05, roughness: 0.65,
    polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
  }),
  highlight: new THREE.MeshStandardMaterial({
    color: COLORS.highlight, emissive: 0x402000, flatShading: true, metalness: 0.05, roughness: 0.6,
  }),
  cut: new THREE.MeshBasicMaterial({ color: COLORS.cut, side: THREE.BackSide }),
  subtract: ghostMaterial(COLORS.subtract),
  intersect: ghostMaterial(COLORS.intersect),
  ghostLit: ghostMaterial(COLORS.highlight, 0.55),
};

function ghostMaterial(color, opacity = 0.28) {
  return new THREE.MeshStandardMaterial({
    color, transparent: true, opacity, depthWrite: false, side: THREE.DoubleSide, flatShading: true,
  });
}

// ---- state ------------------------------------------------------------------

const ui = {
  path: params.get('path'),
  shown: null,          // the build on screen
  loading: null,        // the build being fetched
  status: null,         // the last event
  pieces: [],           // the piece list of the build on screen
  parts: new Map(),     // id -> {solid: Mesh[], ghost: Mesh[], cut: Mesh[]}
  hidden: new Set(),
  selected: null,
  hover: null,
  bounds: null,
  busySince: null,
};

let renderQueued = false;
function requestRender() {
  if (!renderQueued) {
    renderQueued = true;
    requestAnimationFrame(draw);
  }
}

function resize() {
  const w = host.clientWidth, h = host.clientHeight;
  renderer.setSize(w, h, false);
  renderer.domElement.style.width = w + 'px';
  renderer.domElement.style.height = h + 'px';
  camera.aspect = w / Math.max(h, 1);
  camera.updateProjectionMatrix();
  requestRender();
}
new ResizeObserver(resize).observe(host);

function draw() {
  renderQueued = false;
  const w = host.clientWidth, h = host.clientHeight;
  renderer.setViewport(0, 0, w, h);
  renderer.setScissorTest(false);
  renderer.clear();
  renderer.render(scene, camera);
  // The gizmo, bottom left.
  const dir = camera.position.clone().sub(controls.target).normalize();
  gizmoCamera.position.copy(dir.multiplyScalar(4));
  gizmoCamera.up.copy(camera.up);
  gizmoCamera.lookAt(0, 0, 0);
  renderer.setScissorTest(true);
  renderer.setScissor(8, 8, GIZMO, GIZMO);
  renderer.setViewport(8, 8, GIZMO, GIZMO);
  renderer.clearDepth();
  renderer.render(gizmo, gizmoCamera);
  renderer.setScissorTest(false);
  placeAxisLabels(w, h);
}

const axisNames = ['x', 'y', 'z'];
const axisLabels = axisNames.map((name) => {
  const el = document.createElement('span');
  el.className = 'axis axis-' + name;
  el.textContent = name.toUpperCase();
  $('axisLabels').append(el);
  return el;
});

function placeAxisLabels(w, h) {
  const tips = [new THREE.Vector3(1.25, 0, 0), new THREE.Vector3(0, 1.25, 0), new THREE.Vector3(0, 0, 1.25)];
  tips.forEach((tip, i) => {
    const p = tip.project(gizmoCamera);
    const x = 8 + (p.x + 1) / 2 * GIZMO;
    const y = h - (8 + (p.y + 1) / 2 * GIZMO);
    axisLabels[i].style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px) translate(-50%, -50%)`;
  });
}

// ---- the mesh message -------------------------------------------------------

function parseMesh(buffer) {
  const view = new DataView(buffer);
  const magic = String.fromCharCode(...new Uint8Array(buffer, 0, 4));
  if (magic !== 'SSKV') throw new Error('not a mesh message');
  const n = view.getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 8, n)));
  let at = 8 + n;
  const parts = header.parts.map((p) => {
    const positions = new Float32Array(buffer, at, p.vertices * 3);
    at += p.vertices * 12;
    const index = new Uint32Array(buffer, at, p.triangles * 3);
    at += p.triangles * 12;
    return { ...p, positions, index };
  });
  return { header, parts };
}

function clearModel() {
  for (const child of [...model.children]) {
    model.remove(child);
    child.geometry.dispose();
  }
  ui.parts.clear();
}

function show(mesh, pieces) {
  clearModel();
  for (const p of mesh.parts) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(p.positions, 3));
    g.setIndex(new THREE.BufferAttribute(p.index, 1));
    g.computeBoundingSphere();
    const entry = ui.parts.get(p.id) || { solid: [], ghost: [], cut: [] };
    ui.parts.set(p.id, entry);
    if (p.kind === 'ghost') {
      const m = new THREE.Mesh(g, materials[p.mode] || materials.subtract);
      m.renderOrder = 2;
      m.userData.material = m.material;
      entry.ghost.push(m);
      model.add(m);
    } else {
      const m = new THREE.Mesh(g, materials.solid);
      const cut = new THREE.Mesh(g, materials.cut);
      entry.solid.push(m);
      entry.cut.push(cut);
      model.add(m, cut);
    }
  }
  ui.pieces = pieces;
  const b = mesh.header.bounds;
  ui.bounds = b ? new THREE.Box3(new THREE.Vector3(...b[0]), new THREE.Vector3(...b[1])) : null;
  layoutHelpers();
  listPieces();
  applyVisibility();
  updateClip();
}

// ---- grid, size and the file's axes -----------------------------------------

function niceStep(extent) {
  const raw = extent / 12;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (raw <= m * p) return m * p;
  return 10 * p;
}

function mm(v) {
  const a = Math.abs(v);
  return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : v.toFixed(2);
}

function layoutHelpers() {
  for (const child of [...helpers.children]) {
    helpers.remove(child);
    child.geometry?.dispose();
  }
  const b = ui.bounds;
  if (!b) {
    $('dims').textContent = 'empty model';
    return;
  }
  const size = b.getSize(new THREE.Vector3());
  const extent = Math.max(size.x, size.y, size.z, 1e-3);
  const step = niceStep(Math.max(size.x, size.y, extent * 0.5));
  const cells = Math.ceil(Math.max(size.x, size.y) * 1.5 / step / 2) * 2 + 2;
  const grid = new THREE.GridHelper(cells * step, cells, 0x9aa3ad, 0xd3d7dc);
  grid.rotation.x = Math.PI / 2;  // XY, the file's ground
  const c = b.getCenter(new THREE.Vector3());
  grid.position.set(Math.round(c.x / step) * step, Math.round(c.y / step) * step, b.min.z);
  grid.material.transparent = true;
  grid.material.opacity = 0.8;
  helpers.add(grid);
  const axes = new THREE.AxesHelper(extent * 0.25);
  axes.material.depthTest = false;
  axes.renderOrder = 3;
  helpers.add(axes);
  $('dims').textContent =
    `${mm(size.x)} × ${mm(size.y)} × ${mm(size.z)} mm (x × y × z) · grid ${mm(step).replace(/\.0+$/, '')} mm`;
}

function fit() {
  const b = ui.bounds;
  if (!b) return;
  const sphere = b.getBoundingSphere(new THREE.Sphere());
  const r = Math.max(sphere.radius, 1e-3);
  const dir = camera.position.clone().sub(controls.target);
  if (dir.lengthSq() < 1e-12) dir.set(1, -1.4, 0.9);
  dir.normalize();
  const fov = THREE.MathUtils.degToRad(camera.fov);
  const fovX = 2 * Math.atan(Math.tan(fov / 2) * camera.aspect);
  const dist = r / Math.sin(Math.min(fov, fovX) / 2) * 1.08;
  controls.target.copy(sphere.center);
  camera.position.copy(sphere.center).addScaledVector(dir, dist);
  camera.near = dist / 1000;
  camera.far = dist * 100;
  camera.updateProjectionMatrix();
  controls.update();
  requestRender();
}

// ---- the piece list ----------------------------------------------------------

function pieceLine(p) {
  const bits = [p.shape === 'ngon' && p.sides ? `${p.sides}-gon` : p.shape, p.mode,
    `${p.points} point${p.points === 1 ? '' : 's'}`];
  if (p.from !== null && p.from !== undefined) bits.push(`from ${p.from}`);
  return bits.join(' · ');
}

function listPieces() {
  const list = $('pieces');
  list.replaceChildren();
  $('count').textContent = `(${ui.pieces.length})`;
  for (const p of ui.pieces) {
    const li = document.createElement('li');
    li.dataset.id = p.id;
    li.className = 'piece mode-' + p.mode;
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = !ui.hidden.has(p.id);
    box.title = 'show or hide';
    box.addEventListener('change', () => {
      if (box.checked) ui.hidden.delete(p.id); else ui.hidden.add(p.id);
      applyVisibility();
    });
    const label = document.createElement('span');
    label.className = 'label';
    const id = document.createElement('b');
    id.textContent = `#${p.id}`;
    const what = document.createElement('span');
    what.textContent = ' ' + pieceLine(p);
    label.append(id, what);
    const parts = ui.parts.get(p.id);
    if (!parts || (parts.solid.length === 0 && parts.ghost.length === 0)) {
      const none = document.createElement('span');
      none.className = 'quiet';
      none.textContent = ' · nothing drawn';
      label.append(none);
    } else if (parts.solid.length === 0) {
      const none = document.createElement('span');
      none.className = 'quiet';
      none.textContent = ' · ghost only';
      label.append(none);
    }
    li.append(box, label);
    li.addEventListener('click', (e) => {
      if (e.target === box) return;
      select(ui.selected === p.id ? null : p.id);
    });
    li.addEventListener('mouseenter', () => { ui.hover = p.id; applyVisibility(); });
    li.addEventListener('mouseleave', () => { ui.hover = null; applyVisibility(); });
    list.append(li);
  }
  if (ui.selected !== null && !ui.pieces.some((p) => p.id === ui.selected)) ui.selected = null;
  select(ui.selected);
}

function select(id) {
  ui.selected = id;
  for (const li of $('pieces').children) li.classList.toggle('selected', Number(li.dataset.id) === id);
  const detail = $('detail');
  const p = ui.pieces.find((q) => q.id === id);
  detail.hidden = !p;
  if (p) {
    detail.replaceChildren();
    const h = document.createElement('h3');
    h.textContent = `Piece ${p.id}`;
    const dl = document.createElement('dl');
    const row = (k, v) => {
      const dt = document.createElement('dt');
      dt.textContent = k;
      const dd = document.createElement('dd');
      dd.textContent = v;
      dl.append(dt, dd);
    };
    row('shape', p.shape + (p.sides ? ` (${p.sides} sides)` : ''));
    row('mode', p.mode);
    row('points', String(p.points));
    row('size', p.size.map(mm).join(', ') + ' mm');
    if (p.rotation) row('rotation', p.rotation.map((v) => v.toFixed(1)).join(', ') + '°');
    row('inherits from', p.from === null ? '—' : `piece ${p.from}`);
    if (p.mode !== 'add') row('affects', p.affects === null ? 'every piece before it' : p.affects.length ? p.affects.join(', ') : 'nothing');
    const props = document.createElement('pre');
    props.className = 'properties';
    props.textContent = p.properties === null ? 'no properties' : JSON.stringify(p.properties, null, 2);
    detail.append(h, dl, props);
  }
  applyVisibility();
}

function applyVisibility() {
  const ghosts = $('ghosts').checked;
  const clip = $('clip').checked;
  for (const [id, e] of ui.parts) {
    const visible = !ui.hidden.has(id);
    const lit = id === ui.selected || id === ui.hover;
    for (const m of e.solid) {
      m.visible = visible;
      m.material = lit ? materials.highlight : materials.solid;
    }
    for (const m of e.cut) m.visible = visible && clip;
    // A selected subtract or intersect piece is drawn even with ghosts off:
    // where it went is what one wants to see.
    for (const m of e.ghost) {
      m.visible = visible && (ghosts || lit);
      m.material = lit ? materials.ghostLit : m.userData.material;
    }
  }
  requestRender();
}

// ---- clipping ------------------------------------------------------------------

function updateClip() {
  const on = $('clip').checked;
  $('clipAxis').disabled = !on;
  $('clipAt').disabled = !on;
  const planes = on ? [clipPlane] : [];
  for (const m of Object.values(materials)) {
    m.clippingPlanes = planes;
    m.needsUpdate = true;
  }
  $('clipValue').textContent = '';
  if (on && ui.bounds) {
    const axis = Number($('clipAxis').value);
    const lo = ui.bounds.min.getComponent(axis), hi = ui.bounds.max.getComponent(axis);
    const t = lo + (hi - lo) * Number($('clipAt').value) / 1000;
    const n = new THREE.Vector3();
    n.setComponent(axis, -1);
    clipPlane.set(n, t);  // keeps axis <= t
    $('clipValue').textContent = `${axisNames[axis]} ≤ ${mm(t)} mm`;
  }
  applyVisibility();
}

// ---- status, errors, loading ---------------------------------------------------

function setStatus(text, cls) {
  const s = $('status');
  s.textContent = text;
  s.className = 'status ' + (cls || '');
}

function showError(err) {
  const box = $('error');
  box.hidden = !err;
  document.body.dataset.error = err ? err.kind : '';
  if (!err) return;
  const dl = $('errorFields');
  dl.replaceChildren();
  for (const k of ['kind', 'offset', 'piece', 'path', 'message']) {
    if (err[k] === null || err[k] === undefined) continue;
    const dt = document.createElement('dt');
    dt.textContent = k === 'path' ? 'field' : k;
    const dd = document.createElement('dd');
    dd.textContent = String(err[k]);
    dl.append(dt, dd);
  }
  $('errorKeep').textContent = ui.shown !== null
    ? 'The last good model stays on screen until the file is fixed.'
    : 'Nothing to show until the file is fixed.';
}

function busyTick() {
  if (ui.busySince === null) return;
  const s = ((performance.now() - ui.busySince) / 1000).toFixed(1);
  $('busyText').textContent = `${ui.status?.stage || 'meshing'}… ${s} s`;
  setTimeout(busyTick, 100);
}

function onStatus(st) {
  ui.status = st;
  const busy = st.state === 'meshing';
  $('busy').hidden = !busy;
  if (busy && ui.busySince === null) {
    ui.busySince = performance.now();
    busyTick();
  } else if (!busy) {
    ui.busySince = null;
  }
  document.body.dataset.state = st.state;
  showError(st.state === 'error' ? st.error : null);
  const note = $('note');
  note.hidden = !st.reduced;
  note.textContent = st.reduced || '';
  if (st.state === 'error') setStatus('error: ' + (st.error?.message || 'unknown'), 'bad');
  else if (busy) setStatus('meshing…', 'busy');
  else if (st.built !== null) {
    const tri = Number(st.triangles).toLocaleString('en');
    setStatus(`resolution ${st.resolution} · ${tri} triangles · meshed in ${st.seconds.toFixed(2)} s`, 'good');
  }
  if (st.built !== null && st.built !== ui.shown && st.built !== ui.loading) load(st.built);
}

async function load(version) {
  ui.loading = version;
  const q = 'path=' + encodeURIComponent(ui.path);
  try {
    for (let attempt = 0; attempt < 4; attempt++) {
      const [m, b] = await Promise.all([fetch('/api/model?' + q), fetch('/api/mesh?' + q)]);
      if (!m.ok || !b.ok) throw new Error(`the server answered ${m.status}/${b.status}`);
      const vm = m.headers.get('x-sskb-version'), vb = b.headers.get('x-sskb-version');
      const [info, buffer] = await Promise.all([m.json(), b.arrayBuffer()]);
      if (vm !== vb) continue;  // a newer build landed between the two
      const first = ui.shown === null;
      show(parseMesh(buffer), info.model.pieces);
      ui.shown = Number(vm);
      if (first) fit();
      requestRender();
      // Drawn: the marker tests and scripts wait for.
      requestAnimationFrame(() => requestAnimationFrame(() => {
        window.sskbDrawnAt = performance.now();
        document.body.dataset.ready = String(ui.shown);
      }));
      break;
    }
  } catch (e) {
    setStatus('could not load the model: ' + e.message, 'bad');
  } finally {
    ui.loading = null;
    if (ui.status && ui.status.built !== null && ui.status.built !== ui.shown) load(ui.status.built);
  }
}

function connect() {
  const events = new EventSource('/api/events?path=' + encodeURIComponent(ui.path));
  events.onmessage = (e) => onStatus(JSON.parse(e.data));
  events.onerror = () => setStatus('disconnected from sskb view; retrying…', 'bad');
}

// ---- controls --------------------------------------------------------------------

$('fit').addEventListener('click', fit);
$('ghosts').addEventListener('change', applyVisibility);
$('clip').addEventListener('change', updateClip);
$('clipAxis').addEventListener('change', updateClip);
$('clipAt').addEventListener('input', updateClip);
$('showAll').addEventListener('click', () => { ui.hidden.clear(); listPieces(); });
document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement && e.target.type !== 'checkbox' && e.target.type !== 'range') return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const toggle = (id, then) => { $(id).checked = !$(id).checked; then(); };
  switch (e.key) {
    case 'f': case 'F': fit(); break;
    case 'g': case 'G': toggle('ghosts', applyVisibility); break;
    case 'c': case 'C': toggle('clip', updateClip); break;
    case 'Escape': select(null); break;
    default: return;
  }
  e.preventDefault();
});

async function start() {
  const info = await (await fetch('/api/info')).json();
  if (!ui.path) ui.path = info.name;
  $('back').hidden = info.mode !== 'dir';
  $('name').textContent = ui.path;
  document.title = `${ui.path} · sskb view`;
  resize();
  connect();
}
start().catch((e) => setStatus('could not start: ' + e.message, 'bad'));
