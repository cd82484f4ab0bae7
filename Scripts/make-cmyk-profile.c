/*
 * make-cmyk-profile.c: writes a small CMYK ICC profile (ICC v2 output class, AToB0 and BToA0
 * lookup tables on a 5-point grid) for Tests/Fixtures/conformance, so that a CMYK TIFF's profile
 * can be tested without shipping a 650 KB press profile.
 *
 * The device: inks as in the naive rule, but with 20% dot gain (ink^0.8), a paper white of
 * Lab (95, 0, 4) and a black that reaches Lab L* 12: the profile's colours differ visibly from
 * the naive R = (1 - C)(1 - K) conversion, which is what the test must tell apart.
 *
 *   cc Scripts/make-cmyk-profile.c -llcms2 -lm -o /tmp/make-cmyk-profile && /tmp/make-cmyk-profile out.icc
 */
#include <lcms2.h>
#include <math.h>
#include <stdio.h>

static cmsHTRANSFORM srgb_to_lab, lab_to_srgb;

/* CMYK (0-1 ink) to Lab through sRGB: the naive rule with dot gain, then a paper tint and black floor. */
static void device_lab(const double cmyk[4], cmsCIELab *lab) {
    double rgb[3];
    double k = pow(cmyk[3], 0.8);
    for (int i = 0; i < 3; i++) rgb[i] = (1 - pow(cmyk[i], 0.8)) * (1 - k);
    cmsDoTransform(srgb_to_lab, rgb, lab, 1);
    lab->L = 12 + lab->L * (95 - 12) / 100;
    lab->b += 4 * (lab->L - 12) / 83;
}

static int forward(const cmsUInt16Number in[], cmsUInt16Number out[], void *cargo) {
    (void)cargo;
    double cmyk[4];
    for (int i = 0; i < 4; i++) cmyk[i] = in[i] / 65535.0;
    cmsCIELab lab;
    device_lab(cmyk, &lab);
    cmsFloat2LabEncodedV2(out, &lab);
    return 1;
}

/* Lab to CMYK: sRGB's naive inverse with K = 1 - max(R, G, B) (no gamut mapping; the test uses
 * only the forward table, this one makes the profile a complete output profile). */
static int reverse(const cmsUInt16Number in[], cmsUInt16Number out[], void *cargo) {
    (void)cargo;
    cmsCIELab lab;
    cmsLabEncoded2FloatV2(&lab, in);
    double rgb[3];
    cmsDoTransform(lab_to_srgb, &lab, rgb, 1);
    double max = 0;
    for (int i = 0; i < 3; i++) {
        rgb[i] = rgb[i] < 0 ? 0 : rgb[i] > 1 ? 1 : rgb[i];
        if (rgb[i] > max) max = rgb[i];
    }
    double k = 1 - max;
    for (int i = 0; i < 3; i++) out[i] = (cmsUInt16Number)lround(65535 * (max > 0 ? (max - rgb[i]) / max : 0));
    out[3] = (cmsUInt16Number)lround(65535 * k);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s out.icc\n", argv[0]); return 64; }
    cmsHPROFILE srgb = cmsCreate_sRGBProfile(), lab = cmsCreateLab2Profile(NULL);
    srgb_to_lab = cmsCreateTransform(srgb, TYPE_RGB_DBL, lab, TYPE_Lab_DBL, INTENT_RELATIVE_COLORIMETRIC, 0);
    lab_to_srgb = cmsCreateTransform(lab, TYPE_Lab_DBL, srgb, TYPE_RGB_DBL, INTENT_RELATIVE_COLORIMETRIC, 0);
    cmsHPROFILE p = cmsCreateProfilePlaceholder(NULL);
    cmsSetProfileVersion(p, 2.1);
    cmsSetDeviceClass(p, cmsSigOutputClass);
    cmsSetColorSpace(p, cmsSigCmykData);
    cmsSetPCS(p, cmsSigLabData);
    cmsMLU *text = cmsMLUalloc(NULL, 1);
    cmsMLUsetASCII(text, "en", "US", "thumbgen test CMYK (dot gain 20%, paper L95 b4)");
    cmsWriteTag(p, cmsSigProfileDescriptionTag, text);
    cmsMLUsetASCII(text, "en", "US", "No copyright, use freely");
    cmsWriteTag(p, cmsSigCopyrightTag, text);
    cmsMLUfree(text);
    cmsWriteTag(p, cmsSigMediaWhitePointTag, cmsD50_XYZ());
    cmsPipeline *a2b = cmsPipelineAlloc(NULL, 4, 3);
    cmsStage *clut = cmsStageAllocCLut16bit(NULL, 5, 4, 3, NULL);
    cmsStageSampleCLut16bit(clut, forward, NULL, 0);
    cmsPipelineInsertStage(a2b, cmsAT_BEGIN, clut);
    cmsWriteTag(p, cmsSigAToB0Tag, a2b);
    cmsPipeline *b2a = cmsPipelineAlloc(NULL, 3, 4);
    cmsStage *rclut = cmsStageAllocCLut16bit(NULL, 5, 3, 4, NULL);
    cmsStageSampleCLut16bit(rclut, reverse, NULL, 0);
    cmsPipelineInsertStage(b2a, cmsAT_BEGIN, rclut);
    cmsWriteTag(p, cmsSigBToA0Tag, b2a);
    if (!cmsSaveProfileToFile(p, argv[1])) { fprintf(stderr, "cannot write %s\n", argv[1]); return 1; }
    return 0;
}
