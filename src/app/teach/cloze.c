/* The polarity facts as cloze notes (cloze.h). */
#include "cloze.h"

#include "anki.h"

#include <math.h>
#include <string.h>

static const struct {
    const char *id, *text, *extra;
} facts[] = {
    {"keras-mask", "Keras's mask is {{c1::True}} at a real token and {{c2::False}} at a pad.",
     "Embedding(mask_zero=True) makes it from ids != 0 and hands it to every layer that supports masking."},
    {"key-padding-mask", "PyTorch's key_padding_mask is {{c1::True}} at a pad: True means {{c2::ignore this key}}.",
     "nn.MultiheadAttention and nn.TransformerEncoder take it, shape (B, T)."},
    {"sdpa-bool-mask",
     "A boolean attn_mask for F.scaled_dot_product_attention is {{c1::True}} where a key {{c2::takes part}} in "
     "attention.",
     "The opposite polarity of key_padding_mask: invert one to get the other."},
    {"hf-attention-mask", "Hugging Face's attention_mask is {{c1::1}} at a real token and {{c2::0}} at a pad.", ""},
    {"additive-mask",
     "An additive mask is {{c1::0}} at a real key and {{c2::-inf or the dtype's finfo.min}} at a pad, added to "
     "the scores {{c3::before}} the softmax.",
     "Zeroing the weights after the softmax leaves the real keys summing to less than 1."},
    {"fp16-min",
     "torch.finfo(torch.float16).min is {{c1::FP16_MIN}}: added to a float16 score below -16 it {{c2::overflows "
     "to -inf}}, so fill the scores, never add.",
     "A row whose keys are all pads then turns NaN after the softmax."},
    {"ignore-index", "cross_entropy skips a label equal to {{c1::-100}}, its default ignore_index.",
     "Set the pads' labels (and a prompt's, for a completion-only loss) to it."},
    {"pack-padded",
     "pack_padded_sequence reads each row's first length steps: it assumes {{c1::right}} padding, while Keras's "
     "pad_sequences pads {{c2::'pre'}} by default.",
     "Pack after padding 'post', or the pads are read and the last tokens dropped."},
    {"position-ids",
     "Under left padding a token's position id is {{c1::attention_mask.cumsum(-1) - 1}}, not its "
     "column index.",
     "So a left-padded row's first real token is at position 0, as it would be alone."},
};
#define NFACTS ((int)(sizeof facts / sizeof facts[0]))

int pl_cloze_count(void) { return NFACTS; }

int pl_cloze_anki(FILE *f) {
    char text[400];
    double fp16_min = -(2.0 - ldexp(1.0, -10)) * ldexp(1.0, 15); /* float16's largest finite value, negated */
    fputs("#separator:tab\n#html:true\n#notetype:Cloze\n#deck:padlab::polarity\n", f);
    fputs("#columns:GUID\tText\tBack Extra\tTags\n#guid column:1\n#tags column:4\n", f);
    for (int i = 0; i < NFACTS; i++) {
        const char *at = strstr(facts[i].text, "FP16_MIN"); /* the value as float16 holds it, computed */
        if (at) snprintf(text, sizeof text, "%.*s%.0f%s", (int)(at - facts[i].text), facts[i].text, fp16_min, at + 8);
        else snprintf(text, sizeof text, "%s", facts[i].text);
        pl_anki_guid(f, "polarity", facts[i].id);
        fputc('\t', f), pl_anki_html(f, text), fputc('\t', f), pl_anki_html(f, facts[i].extra);
        fputs("\tpadlab::polarity\n", f);
    }
    return ferror(f) ? -1 : 0;
}
