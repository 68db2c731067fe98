# expect: correct
# 300 kernels defined, one launched: the trusted parent must stay linear in them (58 s before the fix, 5 s after)
import functools
import torch
import triton
import triton.language as tl
@triton.jit
def k0(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k1(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k2(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k3(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k4(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k5(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k6(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k7(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k8(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k9(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k10(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k11(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k12(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k13(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k14(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k15(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k16(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k17(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k18(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k19(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k20(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k21(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k22(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k23(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k24(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k25(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k26(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k27(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k28(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k29(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k30(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k31(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k32(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k33(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k34(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k35(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k36(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k37(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k38(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k39(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k40(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k41(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k42(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k43(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k44(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k45(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k46(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k47(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k48(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k49(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k50(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k51(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k52(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k53(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k54(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k55(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k56(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k57(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k58(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k59(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k60(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k61(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k62(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k63(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k64(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k65(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k66(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k67(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k68(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k69(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k70(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k71(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k72(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k73(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k74(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k75(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k76(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k77(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k78(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k79(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k80(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k81(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k82(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k83(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k84(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k85(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k86(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k87(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k88(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k89(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k90(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k91(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k92(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k93(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k94(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k95(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k96(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k97(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k98(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k99(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k100(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k101(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k102(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k103(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k104(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k105(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k106(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k107(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k108(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k109(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k110(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k111(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k112(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k113(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k114(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k115(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k116(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k117(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k118(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k119(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k120(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k121(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k122(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k123(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k124(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k125(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k126(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k127(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k128(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k129(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k130(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k131(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k132(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k133(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k134(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k135(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k136(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k137(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k138(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k139(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k140(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k141(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k142(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k143(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k144(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k145(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k146(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k147(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k148(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k149(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k150(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k151(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k152(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k153(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k154(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k155(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k156(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k157(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k158(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k159(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k160(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k161(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k162(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k163(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k164(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k165(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k166(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k167(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k168(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k169(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k170(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k171(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k172(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k173(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k174(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k175(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k176(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k177(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k178(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k179(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k180(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k181(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k182(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k183(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k184(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k185(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k186(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k187(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k188(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k189(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k190(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k191(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k192(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k193(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k194(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k195(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k196(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k197(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k198(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k199(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k200(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k201(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k202(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k203(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k204(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k205(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k206(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k207(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k208(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k209(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k210(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k211(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k212(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k213(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k214(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k215(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k216(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k217(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k218(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k219(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k220(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k221(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k222(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k223(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k224(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k225(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k226(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k227(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k228(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k229(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k230(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k231(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k232(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k233(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k234(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k235(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k236(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k237(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k238(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k239(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k240(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k241(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k242(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k243(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k244(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k245(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k246(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k247(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k248(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k249(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k250(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k251(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k252(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k253(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k254(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k255(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k256(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k257(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k258(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k259(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k260(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k261(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k262(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k263(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k264(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k265(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k266(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k267(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k268(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k269(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k270(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k271(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k272(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k273(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k274(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k275(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k276(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k277(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k278(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k279(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k280(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k281(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k282(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k283(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k284(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k285(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k286(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k287(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k288(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k289(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k290(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k291(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k292(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k293(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k294(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k295(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k296(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k297(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k298(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def k2999(p, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(p + o, tl.load(p + o, mask=o < n), mask=o < n)

@triton.jit
def softmax_kernel(x_ptr, y_ptr, xs, ys, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * xs + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * ys + cols, e / tl.sum(e, axis=0), mask=mask)

def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
