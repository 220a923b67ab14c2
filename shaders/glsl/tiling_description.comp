#version 450
// Seed 004: record each thread's tile, global and local indices in a Description struct.
// Go body: cmd/ampdemo TilingDescription.Tiled.
#include "amp.glsl"
AMP_WORKGROUP
struct Description {
	int value;
	int tileRow;
	int tileColumn;
	int globalRow;
	int globalColumn;
	int localRow;
	int localColumn;
};
AMP_BUFFER(0, , Description, descriptions);
AMP_PUSH_BEGIN AmpView desc; AMP_PUSH_END

void main() {
	ivec2 g = ampGlobal2();
	ivec2 t = ampTile2();
	ivec2 l = ampLocal2();
	uint at = ampAt2(amp.desc, g);
	descriptions[at].globalRow = g.x;
	descriptions[at].globalColumn = g.y;
	descriptions[at].tileRow = t.x;
	descriptions[at].tileColumn = t.y;
	descriptions[at].localRow = l.x;
	descriptions[at].localColumn = l.y;
}
