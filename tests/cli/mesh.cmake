# SPDX-License-Identifier: BSD-3-Clause
# `frx mesh ...` as a user runs it. Included from tests/cli/tests.cmake.
set(FRX_MESH_DATA ${PROJECT_SOURCE_DIR}/tests/data/mesh)

frx_cli_test(mesh-info-inlet 0 "^  inlet +1 face$"
  mesh info ${FRX_MESH_DATA}/channel.msh)
frx_cli_test(mesh-info-wall 0 "^  wall +4 faces$"
  mesh info ${FRX_MESH_DATA}/channel.msh)
frx_cli_test(mesh-info-types 0 "^  quadrilateral, order 1: 2$"
  mesh info ${FRX_MESH_DATA}/channel.msh)
frx_cli_test(mesh-info-faces 0
  "^faces: +7 [(]1 interior, 0 periodic, 6 on boundaries[)]$"
  mesh info ${FRX_MESH_DATA}/channel.msh)
frx_cli_test(mesh-info-id 0 "mesh id: +[0-9a-f]{64}"
  mesh info ${FRX_MESH_DATA}/channel.msh)
frx_cli_test(mesh-partition-linear 0 "^ +1 +1 +50.00% +50.00%$"
  mesh partition ${FRX_MESH_DATA}/channel.msh -n 2 --method linear)
frx_cli_test(mesh-partition-linear-cut 0 "^cut faces: 1 of 7 "
  mesh partition ${FRX_MESH_DATA}/channel.msh -n 2 --method linear)
frx_cli_test(mesh-partition-metis 0 "cut faces: 1 of 7 "
  mesh partition ${FRX_MESH_DATA}/channel.msh -n 2)

# Bad files: the line and what is wrong, exit status 1.
frx_cli_test(mesh-info-bad-type 1 "bad-type.msh:45: unknown element type 99"
  mesh info ${FRX_MESH_DATA}/bad-type.msh)
frx_cli_test(mesh-info-no-file 1 "nope.msh: cannot open the mesh file: No such file"
  mesh info ${FRX_MESH_DATA}/nope.msh)
frx_cli_test(mesh-partition-too-many 1 "3 parts of a mesh of 2 elements: every part needs an element"
  mesh partition ${FRX_MESH_DATA}/channel.msh -n 3)

# Usage.
frx_cli_test(mesh-help 0 "usage: frx mesh info FILE" mesh --help)
frx_cli_test(mesh-info-help 0 "frx mesh partition FILE -n N" mesh info --help)
frx_cli_test(mesh-no-args 2 "usage: frx mesh info FILE" mesh)
frx_cli_test(mesh-unknown-command 2 "frx mesh: unknown command 'infoo'" mesh infoo)
frx_cli_test(mesh-info-no-file-arg 2 "frx mesh info: which file[?]" mesh info)
frx_cli_test(mesh-partition-no-n 2 "frx mesh partition: how many parts[?] [(]-n N[)]"
  mesh partition ${FRX_MESH_DATA}/channel.msh)
frx_cli_test(mesh-partition-bad-weights 2
  "--weights needs 2 positive numbers separated by commas, like 3,1: got '1,x'"
  mesh partition ${FRX_MESH_DATA}/channel.msh -n 2 --weights 1,x)
frx_cli_test(mesh-partition-bad-method 2 "--method is metis or linear, got 'best'"
  mesh partition ${FRX_MESH_DATA}/channel.msh -n 2 --method best)
frx_cli_test(help-lists-mesh 0 "mesh info FILE +a Gmsh mesh as frx reads it" help)

# PyFR's own vortex mesh (config/meshes/, shipped with the examples).
function(frx_pyfr_cli_test name regex)
  frx_cli_test(${name} 0 "${regex}" ${ARGN})
endfunction()
set(FRX_VORTEX ${FRX_PYFR_VORTEX_MSH})
frx_pyfr_cli_test(mesh-info-pyfr-vortex "^  quadrilateral, order 1: 400$"
  mesh info ${FRX_VORTEX})
frx_pyfr_cli_test(mesh-info-pyfr-vortex-x
  "^  periodic_0 +20 faces, translation [(]-20, 0[)]$" mesh info ${FRX_VORTEX})
frx_pyfr_cli_test(mesh-info-pyfr-vortex-y
  "^  periodic_1 +20 faces, translation [(]0, 20[)]$" mesh info ${FRX_VORTEX})
frx_pyfr_cli_test(mesh-info-pyfr-vortex-faces
  "^faces: +800 [(]760 interior, 40 periodic, 0 on boundaries[)]$"
  mesh info ${FRX_VORTEX})
frx_pyfr_cli_test(mesh-partition-pyfr-vortex "^ +0 +200 +50.00% +50.00%$"
  mesh partition ${FRX_VORTEX} -n 4 --weights 3,1,1,1 --method linear)
frx_pyfr_cli_test(mesh-partition-pyfr-vortex-1 "^ +1 +67 +16.75% +16.67%$"
  mesh partition ${FRX_VORTEX} -n 4 --weights 3,1,1,1 --method linear)
frx_pyfr_cli_test(mesh-partition-pyfr-vortex-metis "^cut faces: [0-9]+ of 800 "
  mesh partition ${FRX_VORTEX} -n 3)

# A box of tetrahedra: 6 a cube, 2 triangles on each cube face.
frx_cli_test(mesh-info-tet 0 "^  tetrahedron, order 2: 48$"
  mesh info ${FRX_MESH_DATA}/tet-box.yaml)
frx_cli_test(mesh-info-tet-faces 0
  "^faces: +112 [(]72 interior, 8 periodic, 32 on boundaries[)]$"
  mesh info ${FRX_MESH_DATA}/tet-box.yaml)
frx_cli_test(mesh-partition-tet 0 "^cut faces: [0-9]+ of 112 "
  mesh partition ${FRX_MESH_DATA}/tet-box.yaml -n 3)

# A box of prisms: 2 a cube, quadrilaterals on the x and y sides, 2
# triangles on each z side (periodic here).
frx_cli_test(mesh-info-pri 0 "^  prism, order 2: 16$"
  mesh info ${FRX_MESH_DATA}/pri-box.yaml)
frx_cli_test(mesh-info-pri-faces 0
  "^faces: +48 [(]24 interior, 8 periodic, 16 on boundaries[)]$"
  mesh info ${FRX_MESH_DATA}/pri-box.yaml)
frx_cli_test(mesh-partition-pri 0 "^cut faces: [0-9]+ of 48 "
  mesh partition ${FRX_MESH_DATA}/pri-box.yaml -n 3)
# A hexahedron beside two prisms (hex-pri.msh): both types, the
# hexahedron's quadrilateral meeting a prism's; one boundary of
# quadrilaterals and triangles.
frx_cli_test(mesh-info-hex-pri 0 "^  hexahedron, order 1: 1$"
  mesh info ${FRX_MESH_DATA}/hex-pri.msh)
frx_cli_test(mesh-info-hex-pri-prisms 0 "^  prism, order 1: 2$"
  mesh info ${FRX_MESH_DATA}/hex-pri.msh)
frx_cli_test(mesh-info-hex-pri-wall 0 "^  wall +12 faces$"
  mesh info ${FRX_MESH_DATA}/hex-pri.msh)
frx_cli_test(mesh-info-hex-pri-faces 0
  "^faces: +14 [(]2 interior, 0 periodic, 12 on boundaries[)]$"
  mesh info ${FRX_MESH_DATA}/hex-pri.msh)
frx_cli_test(mesh-partition-hex-pri 0 "^cut faces: [12] of 14 "
  mesh partition ${FRX_MESH_DATA}/hex-pri.msh -n 2)
# Parts share the work, elements by their type's cost (hexahedron 18,
# prism 10): the hexahedron alone against the two prisms, where a split
# by count would give the hexahedron and a prism (74%) against a prism.
frx_cli_test(mesh-partition-hex-pri-work 0
  "^     0          1    47[.]37%    50[.]00%$"
  mesh partition ${FRX_MESH_DATA}/hex-pri.msh -n 2 --method linear)

# A box of pyramids: 6 a cube, 12 triangles inside each cube, bases
# (quadrilaterals) between cubes and on the sides.
frx_cli_test(mesh-info-pyr 0 "^  pyramid, order 2: 48$"
  mesh info ${FRX_MESH_DATA}/pyr-box.yaml)
frx_cli_test(mesh-info-pyr-faces 0
  "^faces: +124 [(]108 interior, 8 periodic, 8 on boundaries[)]$"
  mesh info ${FRX_MESH_DATA}/pyr-box.yaml)
frx_cli_test(mesh-partition-pyr 0 "^cut faces: [0-9]+ of 124 "
  mesh partition ${FRX_MESH_DATA}/pyr-box.yaml -n 3)
# A hexahedron beside a cube of a pyramid and four tetrahedra
# (hex-pyr-tet.msh): the pyramid's base meets the hexahedron, its sides
# the tetrahedra; three types counted, one boundary of both kinds.
frx_cli_test(mesh-info-hex-pyr-tet 0 "^  pyramid, order 1: 1$"
  mesh info ${FRX_MESH_DATA}/hex-pyr-tet.msh)
frx_cli_test(mesh-info-hex-pyr-tet-faces 0
  "^faces: +21 [(]6 interior, 0 periodic, 15 on boundaries[)]$"
  mesh info ${FRX_MESH_DATA}/hex-pyr-tet.msh)
# by work: the hexahedron (18) against the pyramid (6) and the four
# tetrahedra (3 each)
frx_cli_test(mesh-partition-hex-pyr-tet-work 0
  "^     0          1    50[.]00%    50[.]00%$"
  mesh partition ${FRX_MESH_DATA}/hex-pyr-tet.msh -n 2 --method linear)

# A case file's mesh (a box here), and -o in the help.
frx_cli_test(mesh-info-case 0 "^  quadrilateral, order 1: 256$"
  mesh info ${PROJECT_SOURCE_DIR}/config/advection.yaml)
frx_cli_test(mesh-partition-help-o 0 "-o OUT.h5 +also write every part"
  mesh partition --help)
