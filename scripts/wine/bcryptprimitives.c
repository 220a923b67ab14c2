// bcryptprimitives.dll for Wine 8 (Debian bookworm's wine64), which has none: Go's Windows
// runtime (since Go 1.22) loads bcryptprimitives.dll at start-up and takes its random bytes
// from ProcessPrng, and stops with "fatal error: bcryptprimitives.dll not found" without it.
// advapi32's SystemFunction036 (RtlGenRandom), which Wine has, is enough behind it.
// scripts/setup.sh builds it with x86_64-w64-mingw32-gcc -shared and puts it in the system32
// folder of the Wine prefix that `make test-wine` uses; Windows itself has its own.
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
	while (length > 0) {
		ULONG n = length > 0x10000000 ? 0x10000000 : (ULONG)length;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		length -= n;
	}
	return TRUE;
}
