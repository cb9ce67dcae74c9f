"""Builds and renders photo-real table stages inside Blender; the rest of Borne never imports this file.

Run as ``blender -b --factory-startup --python in_blender.py -- JOBS.json``. ``JOBS.json`` holds a
list of stages (:mod:`datasets.photoreal.stage` writes them: every position, size and colour is
decided there, from the scene's seed; this script only builds what it is told, in metres). For each
stage whose ``done`` file is missing it builds the scene afresh, renders it with Cycles on the CPU
and leaves four passes in the stage's folder as ``.npy`` arrays (``H × W × 4`` float32, top row
first): ``image`` (linear light, not denoised), ``albedo`` and ``normal`` (for the denoiser) and
``index`` (each pixel's object: ``0`` the table, a card's ``pass_index``, :data:`OCCLUDER_INDEX` for
arms and objects). Blender writes them as OpenEXR, which OpenCV's wheels no longer read, so the
script reads them back and writes ``.npy`` itself. Only Blender's own modules and the standard
library are used: Debian's Blender has no numpy.
"""

from __future__ import annotations

import array
import json
import math
import sys
from pathlib import Path

import bmesh
import bpy
from mathutils import Euler, Matrix, Vector

OCCLUDER_INDEX = 1000
PASSES = (("image", "Image"), ("albedo", "DiffCol"), ("normal", "Normal"), ("index", "IndexOB"))
"""Output file stem and the render layer socket it comes from."""


def _reset(stage: dict) -> bpy.types.Scene:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    cycles = scene.cycles
    cycles.device = "CPU"
    cycles.samples = int(stage["samples"])
    cycles.use_adaptive_sampling = True
    cycles.adaptive_threshold = 0.03
    cycles.use_denoising = False
    cycles.seed = int(stage["seed"])
    cycles.max_bounces = 3
    cycles.diffuse_bounces = 1
    cycles.glossy_bounces = 1
    cycles.transmission_bounces = 3
    cycles.transparent_max_bounces = 4
    cycles.caustics_reflective = False
    cycles.caustics_refractive = False
    cycles.sample_clamp_indirect = 4.0
    scene.render.threads_mode = "FIXED"
    scene.render.threads = int(stage["threads"])
    scene.render.resolution_x = int(stage["width"])
    scene.render.resolution_y = int(stage["height"])
    scene.render.resolution_percentage = 100
    scene.render.film_transparent = False
    layer = scene.view_layers[0]
    layer.use_pass_combined = True
    layer.use_pass_object_index = True
    layer.use_pass_normal = True
    layer.use_pass_diffuse_color = True
    return scene


def _outputs(scene: bpy.types.Scene, folder: str) -> None:
    scene.use_nodes = True
    tree = scene.node_tree
    tree.nodes.clear()
    layers = tree.nodes.new("CompositorNodeRLayers")
    composite = tree.nodes.new("CompositorNodeComposite")
    tree.links.new(layers.outputs["Image"], composite.inputs["Image"])
    out = tree.nodes.new("CompositorNodeOutputFile")
    out.base_path = folder
    out.format.file_format = "OPEN_EXR"
    out.format.color_depth = "32"
    out.format.exr_codec = "ZIP"
    out.file_slots.clear()
    for stem, socket in PASSES:
        out.file_slots.new(stem + "_")
        tree.links.new(layers.outputs[socket], out.inputs[-1])


def _link(obj: bpy.types.Object) -> bpy.types.Object:
    bpy.context.scene.collection.objects.link(obj)
    return obj


def _principled(name: str, colour: list[float], roughness: float, **inputs: float) -> bpy.types.Material:
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*colour[:3], 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    for key, value in inputs.items():
        bsdf.inputs[key.replace("_", " ").title()].default_value = value
    return mat


def _image_material(name: str, image: str, roughness: float, clearcoat: float) -> bpy.types.Material:
    mat = _principled(name, [1, 1, 1], roughness, clearcoat=clearcoat, clearcoat_roughness=0.08)
    nodes = mat.node_tree.nodes
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = bpy.data.images.load(image, check_existing=True)
    tex.interpolation = "Cubic"
    tex.extension = "EXTEND"
    mat.node_tree.links.new(tex.outputs["Color"], nodes["Principled BSDF"].inputs["Base Color"])
    return mat


def _camera(stage: dict) -> None:
    spec = stage["camera"]
    data = bpy.data.cameras.new("camera")
    data.sensor_fit = "HORIZONTAL"
    data.sensor_width = spec["sensor_mm"]
    data.lens = spec["lens_mm"]
    data.clip_start = 0.01
    data.clip_end = 30.0
    cam = _link(bpy.data.objects.new("camera", data))
    cam.matrix_world = Matrix(spec["matrix"])
    bpy.context.scene.camera = cam


def _table(spec: dict) -> None:
    half = 2.0
    mesh = bpy.data.meshes.new("table")
    mesh.from_pydata([(-half, -half, 0), (half, -half, 0), (half, half, 0), (-half, half, 0)], [], [(0, 1, 2, 3)])
    repeat = 2 * half / spec["tile_m"]
    uv = mesh.uv_layers.new()
    for loop, (u, v) in zip(uv.data, [(0, 0), (repeat, 0), (repeat, repeat), (0, repeat)]):
        loop.uv = (u, v)
    obj = _link(bpy.data.objects.new("table", mesh))
    mat = _principled("table", [1, 1, 1], spec["roughness"])
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    bsdf = nodes["Principled BSDF"]
    coords = nodes.new("ShaderNodeTexCoord")
    mapping = nodes.new("ShaderNodeMapping")
    mapping.inputs["Rotation"].default_value = (0, 0, spec["rotation"])
    links.new(coords.outputs["UV"], mapping.inputs["Vector"])
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = bpy.data.images.load(spec["image"], check_existing=True)
    tex.interpolation = "Cubic"
    links.new(mapping.outputs["Vector"], tex.inputs["Vector"])
    # large soft patches of colour, so that a small tile does not repeat visibly
    patches = nodes.new("ShaderNodeTexNoise")
    patches.inputs["Scale"].default_value = 1.5
    patches.inputs["Detail"].default_value = 2.0
    links.new(coords.outputs["Object"], patches.inputs["Vector"])
    vary = nodes.new("ShaderNodeMapRange")
    vary.inputs["To Min"].default_value = 1 - spec["variation"]
    vary.inputs["To Max"].default_value = 1 + spec["variation"]
    links.new(patches.outputs["Fac"], vary.inputs["Value"])
    shade = nodes.new("ShaderNodeMixRGB")
    shade.blend_type = "MULTIPLY"
    shade.inputs["Fac"].default_value = 1.0
    links.new(tex.outputs["Color"], shade.inputs["Color1"])
    links.new(vary.outputs["Result"], shade.inputs["Color2"])
    links.new(shade.outputs["Color"], bsdf.inputs["Base Color"])
    grain = nodes.new("ShaderNodeTexNoise")
    grain.inputs["Scale"].default_value = 900.0
    links.new(coords.outputs["Object"], grain.inputs["Vector"])
    bump = nodes.new("ShaderNodeBump")
    bump.inputs["Strength"].default_value = spec["bump"]
    bump.inputs["Distance"].default_value = 0.0005
    links.new(tex.outputs["Color"], bump.inputs["Height"])
    links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])
    obj.data.materials.append(mat)
    obj.pass_index = 0


def _card(spec: dict, rim: bpy.types.Material) -> None:
    nu, nv = spec["grid"]
    verts = [tuple(v) for v in spec["vertices"]]
    faces = [(j * nu + i, (j + 1) * nu + i, (j + 1) * nu + i + 1, j * nu + i + 1)
             for j in range(nv - 1) for i in range(nu - 1)]
    mesh = bpy.data.meshes.new("card")
    mesh.from_pydata(verts, [], faces)
    uv = mesh.uv_layers.new()
    for poly in mesh.polygons:
        for loop_index in poly.loop_indices:
            k = mesh.loops[loop_index].vertex_index
            i, j = k % nu, k // nu
            uv.data[loop_index].uv = (i / (nu - 1), 1 - j / (nv - 1))
    for poly in mesh.polygons:
        poly.use_smooth = True
    obj = _link(bpy.data.objects.new("card", mesh))
    obj.data.materials.append(_image_material("face", spec["image"], spec["roughness"], spec["clearcoat"]))
    obj.data.materials.append(rim)
    solid = obj.modifiers.new("stock", "SOLIDIFY")
    solid.thickness = spec["thickness"]
    solid.offset = -1.0
    solid.use_rim = True
    solid.material_offset_rim = 1
    obj.pass_index = int(spec["pass_index"])


def _metaball(name: str, bones: list[list[float]], material: bpy.types.Material) -> None:
    """Capsules ``(x0, y0, z0, x1, y1, z1, radius)`` and flattened balls ``(x, y, z, radius, flatness, heading)``, merged smooth."""
    data = bpy.data.metaballs.new(name)
    data.resolution = 0.01
    data.render_resolution = 0.004
    data.threshold = 0.3
    for bone in bones:
        el = data.elements.new()
        if len(bone) == 7:
            a, b = Vector(bone[:3]), Vector(bone[3:6])
            el.type = "CAPSULE"
            el.co = (a + b) / 2
            el.size_x = (b - a).length / 2
            el.rotation = Vector((1, 0, 0)).rotation_difference(b - a)
            el.radius = bone[6]
        else:
            el.type = "ELLIPSOID"
            el.co = bone[:3]
            el.radius = bone[3]
            el.size_x, el.size_y, el.size_z = 1.0, 0.9, bone[4]
            el.rotation = Euler((0, 0, bone[5])).to_quaternion()
        el.stiffness = 2.0
    data.materials.append(material)
    obj = _link(bpy.data.objects.new(name, data))
    obj.pass_index = OCCLUDER_INDEX


def _arm(k: int, spec: dict) -> None:
    skin = _principled(f"skin{k}", spec["skin"], 0.45)  # no subsurface scattering: it doubled the cost of a hand
    _metaball(f"Skin{k}", spec["skin_bones"], skin)
    if spec["sleeve_bones"]:
        _metaball(f"Sleeve{k}", spec["sleeve_bones"], _principled(f"sleeve{k}", spec["sleeve"], 0.8, sheen=0.5))


def _solid(obj: bpy.types.Object, material: bpy.types.Material) -> None:
    obj.data.materials.append(material)
    obj.pass_index = OCCLUDER_INDEX
    for poly in obj.data.polygons:
        poly.use_smooth = True


def _open_cylinder(radius: float, height: float, wall: float, location: tuple, material: bpy.types.Material) -> None:
    bpy.ops.mesh.primitive_cylinder_add(vertices=48, radius=radius, depth=height,
                                        location=(location[0], location[1], height / 2))
    obj = bpy.context.active_object
    mesh = bmesh.new()
    mesh.from_mesh(obj.data)
    top = [f for f in mesh.faces if f.normal.z > 0.9]
    bmesh.ops.delete(mesh, geom=top, context="FACES")
    mesh.to_mesh(obj.data)
    mesh.free()
    solid = obj.modifiers.new("wall", "SOLIDIFY")
    solid.thickness = wall
    _solid(obj, material)


def _object(spec: dict) -> None:
    kind, (x, y, _), angle, colour = spec["kind"], spec["location"], spec["angle"], spec["colour"]
    if kind == "glass":
        glass = bpy.data.materials.new("glass")
        glass.use_nodes = True
        nodes = glass.node_tree.nodes
        nodes.remove(nodes["Principled BSDF"])
        shader = nodes.new("ShaderNodeBsdfGlass")
        shader.inputs["IOR"].default_value = 1.5
        shader.inputs["Roughness"].default_value = 0.02
        glass.node_tree.links.new(shader.outputs["BSDF"], nodes["Material Output"].inputs["Surface"])
        _open_cylinder(0.036, 0.11, 0.003, (x, y), glass)
    elif kind == "mug":
        mat = _principled("mug", colour, 0.15)
        _open_cylinder(0.042, 0.095, 0.005, (x, y), mat)
        bpy.ops.mesh.primitive_torus_add(major_radius=0.028, minor_radius=0.007,
                                         location=(x + 0.05 * math.cos(angle), y + 0.05 * math.sin(angle), 0.05),
                                         rotation=(math.pi / 2, 0, angle + math.pi / 2))
        _solid(bpy.context.active_object, mat)
    elif kind == "phone":
        bpy.ops.mesh.primitive_cube_add(size=1, location=(x, y, 0.004), rotation=(0, 0, angle))
        obj = bpy.context.active_object
        obj.scale = (0.075, 0.155, 0.008)
        bevel = obj.modifiers.new("round", "BEVEL")
        bevel.width = 0.06
        bevel.segments = 4
        _solid(obj, _principled("phone", colour, 0.12, metallic=0.3))
    elif kind == "pencil":
        bpy.ops.mesh.primitive_cylinder_add(vertices=6, radius=0.0036, depth=0.175, location=(x, y, 0.0036),
                                            rotation=(math.pi / 2, 0, angle))
        _solid(bpy.context.active_object, _principled("pencil", colour, 0.4))
    elif kind == "coin":
        bpy.ops.mesh.primitive_cylinder_add(vertices=40, radius=0.012, depth=0.002, location=(x, y, 0.001))
        _solid(bpy.context.active_object, _principled("coin", colour, 0.25, metallic=1.0))
    elif kind == "pad":
        bpy.ops.mesh.primitive_cube_add(size=1, location=(x, y, 0.003), rotation=(0, 0, angle))
        obj = bpy.context.active_object
        obj.scale = (0.105, 0.148, 0.006)
        _solid(obj, _principled("pad", colour, 0.85))
    else:
        raise ValueError(f"unknown object {kind!r}")


def _blackbody(light: bpy.types.Light, kelvin: float) -> None:
    light.use_nodes = True
    nodes = light.node_tree.nodes
    body = nodes.new("ShaderNodeBlackbody")
    body.inputs["Temperature"].default_value = kelvin
    light.node_tree.links.new(body.outputs["Color"], nodes["Emission"].inputs["Color"])


def _lights(stage: dict) -> None:
    world = bpy.data.worlds.new("world")
    world.cycles.sampling_method = "MANUAL"  # "AUTOMATIC" sizes the map to the HDRI and ignores the resolution
    world.cycles.sample_map_resolution = 256  # the environment's importance map: a larger one costs seconds per scene
    bpy.context.scene.world = world
    world.use_nodes = True
    nodes, links = world.node_tree.nodes, world.node_tree.links
    background = nodes["Background"]
    spec = stage["world"]
    background.inputs["Strength"].default_value = spec["strength"]
    if "sky" in spec:  # the test split: a plain sky, no environment image
        background.inputs["Color"].default_value = (*spec["sky"], 1.0)
    else:
        _environment(nodes, links, background, spec)
    _lamps(stage["lights"])


def _environment(nodes, links, background, spec: dict) -> None:
    env = nodes.new("ShaderNodeTexEnvironment")
    folder = Path(bpy.utils.system_resource("DATAFILES", path="studiolights/world"))
    env.image = bpy.data.images.load(str(folder / spec["hdri"]), check_existing=True)
    mapping = nodes.new("ShaderNodeMapping")
    mapping.inputs["Rotation"].default_value = (0, 0, spec["rotation"])
    coords = nodes.new("ShaderNodeTexCoord")
    links.new(coords.outputs["Generated"], mapping.inputs["Vector"])
    links.new(mapping.outputs["Vector"], env.inputs["Vector"])
    links.new(env.outputs["Color"], background.inputs["Color"])


def _lamps(lamps: list) -> None:
    for k, spec in enumerate(lamps):
        light = bpy.data.lights.new(f"light{k}", {"area": "AREA", "point": "POINT"}.get(spec["kind"], "SUN"))
        if spec["kind"] == "area":
            light.shape = "DISK"
            light.size = spec["size"]
        elif spec["kind"] == "point":
            light.shadow_soft_size = spec["size"]
        else:
            light.angle = spec["size"]
        light.energy = spec["power"]
        _blackbody(light, spec["kelvin"])
        obj = _link(bpy.data.objects.new(f"light{k}", light))
        obj.location = spec["location"]
        obj.rotation_euler = spec["rotation"]


def build(stage: dict) -> bpy.types.Scene:
    scene = _reset(stage)
    _outputs(scene, stage["folder"])
    _camera(stage)
    _table(stage["table"])
    rim = _principled("rim", [0.86, 0.85, 0.82], 0.7)
    for card in stage["cards"]:
        _card(card, rim)
    for k, arm in enumerate(stage["arms"]):
        _arm(k, arm)
    for obj in stage["objects"]:
        _object(obj)
    _lights(stage)
    return scene


def _write_npy(path: Path, pixels: array.array, height: int, width: int) -> None:
    """``pixels`` (Blender's order: bottom row first, RGBA) as a ``.npy`` array, top row first."""
    header = f"{{'descr': '<f4', 'fortran_order': False, 'shape': ({height}, {width}, 4), }}"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    row = width * 4
    with path.open("wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin-1"))
        for y in range(height - 1, -1, -1):
            pixels[y * row : (y + 1) * row].tofile(f)


def dump_passes(folder: Path) -> None:
    """Blender's EXR passes in ``folder`` as ``.npy`` files; the EXRs are removed."""
    for stem, _ in PASSES:
        exr = folder / f"{stem}_0001.exr"
        image = bpy.data.images.load(str(exr))
        width, height = image.size
        pixels = array.array("f", bytes(4 * width * height * 4))
        image.pixels.foreach_get(pixels)
        _write_npy(folder / f"{stem}.npy", pixels, height, width)
        bpy.data.images.remove(image)
        exr.unlink()


def main() -> None:
    jobs = json.loads(Path(sys.argv[sys.argv.index("--") + 1]).read_text())
    for stage in jobs["stages"]:
        done = Path(stage["folder"]) / "done"
        if done.exists():
            continue
        build(stage)
        bpy.ops.render.render(write_still=False)
        dump_passes(Path(stage["folder"]))
        done.write_text("rendered\n")
        print(f"borne: rendered {stage['folder']}", flush=True)


if __name__ == "__main__":
    main()
