// The format's BuiltinOptions union, one line per member from ordinal 1
// upwards (0 is NONE, no table): OPT(Name) makes the constant k<Name> and the
// display name "<Name>", so the two cannot disagree. Source of the facts: the
// TFLite schema (schema.fbs, union BuiltinOptions) as shipped with the
// tflite-micro package this project tests against. The union is frozen: the
// schema adds new option tables to a second union (BuiltinOptions2), so this
// list is complete and a new kernel never edits it.
#ifndef TFLM_ARENA_MODEL_BUILTIN_OPTIONS_LIST_H_
#define TFLM_ARENA_MODEL_BUILTIN_OPTIONS_LIST_H_

// clang-format off
#define TFLM_ARENA_BUILTIN_OPTIONS(OPT) \
  OPT(Conv2DOptions)                     /*   1 */ \
  OPT(DepthwiseConv2DOptions)            /*   2 */ \
  OPT(ConcatEmbeddingsOptions)           /*   3 */ \
  OPT(LSHProjectionOptions)              /*   4 */ \
  OPT(Pool2DOptions)                     /*   5 */ \
  OPT(SVDFOptions)                       /*   6 */ \
  OPT(RNNOptions)                        /*   7 */ \
  OPT(FullyConnectedOptions)             /*   8 */ \
  OPT(SoftmaxOptions)                    /*   9 */ \
  OPT(ConcatenationOptions)              /*  10 */ \
  OPT(AddOptions)                        /*  11 */ \
  OPT(L2NormOptions)                     /*  12 */ \
  OPT(LocalResponseNormalizationOptions) /*  13 */ \
  OPT(LSTMOptions)                       /*  14 */ \
  OPT(ResizeBilinearOptions)             /*  15 */ \
  OPT(CallOptions)                       /*  16 */ \
  OPT(ReshapeOptions)                    /*  17 */ \
  OPT(SkipGramOptions)                   /*  18 */ \
  OPT(SpaceToDepthOptions)               /*  19 */ \
  OPT(EmbeddingLookupSparseOptions)      /*  20 */ \
  OPT(MulOptions)                        /*  21 */ \
  OPT(PadOptions)                        /*  22 */ \
  OPT(GatherOptions)                     /*  23 */ \
  OPT(BatchToSpaceNDOptions)             /*  24 */ \
  OPT(SpaceToBatchNDOptions)             /*  25 */ \
  OPT(TransposeOptions)                  /*  26 */ \
  OPT(ReducerOptions)                    /*  27 */ \
  OPT(SubOptions)                        /*  28 */ \
  OPT(DivOptions)                        /*  29 */ \
  OPT(SqueezeOptions)                    /*  30 */ \
  OPT(SequenceRNNOptions)                /*  31 */ \
  OPT(StridedSliceOptions)               /*  32 */ \
  OPT(ExpOptions)                        /*  33 */ \
  OPT(TopKV2Options)                     /*  34 */ \
  OPT(SplitOptions)                      /*  35 */ \
  OPT(LogSoftmaxOptions)                 /*  36 */ \
  OPT(CastOptions)                       /*  37 */ \
  OPT(DequantizeOptions)                 /*  38 */ \
  OPT(MaximumMinimumOptions)             /*  39 */ \
  OPT(ArgMaxOptions)                     /*  40 */ \
  OPT(LessOptions)                       /*  41 */ \
  OPT(NegOptions)                        /*  42 */ \
  OPT(PadV2Options)                      /*  43 */ \
  OPT(GreaterOptions)                    /*  44 */ \
  OPT(GreaterEqualOptions)               /*  45 */ \
  OPT(LessEqualOptions)                  /*  46 */ \
  OPT(SelectOptions)                     /*  47 */ \
  OPT(SliceOptions)                      /*  48 */ \
  OPT(TransposeConvOptions)              /*  49 */ \
  OPT(SparseToDenseOptions)              /*  50 */ \
  OPT(TileOptions)                       /*  51 */ \
  OPT(ExpandDimsOptions)                 /*  52 */ \
  OPT(EqualOptions)                      /*  53 */ \
  OPT(NotEqualOptions)                   /*  54 */ \
  OPT(ShapeOptions)                      /*  55 */ \
  OPT(PowOptions)                        /*  56 */ \
  OPT(ArgMinOptions)                     /*  57 */ \
  OPT(FakeQuantOptions)                  /*  58 */ \
  OPT(PackOptions)                       /*  59 */ \
  OPT(LogicalOrOptions)                  /*  60 */ \
  OPT(OneHotOptions)                     /*  61 */ \
  OPT(LogicalAndOptions)                 /*  62 */ \
  OPT(LogicalNotOptions)                 /*  63 */ \
  OPT(UnpackOptions)                     /*  64 */ \
  OPT(FloorDivOptions)                   /*  65 */ \
  OPT(SquareOptions)                     /*  66 */ \
  OPT(ZerosLikeOptions)                  /*  67 */ \
  OPT(FillOptions)                       /*  68 */ \
  OPT(BidirectionalSequenceLSTMOptions)  /*  69 */ \
  OPT(BidirectionalSequenceRNNOptions)   /*  70 */ \
  OPT(UnidirectionalSequenceLSTMOptions) /*  71 */ \
  OPT(FloorModOptions)                   /*  72 */ \
  OPT(RangeOptions)                      /*  73 */ \
  OPT(ResizeNearestNeighborOptions)      /*  74 */ \
  OPT(LeakyReluOptions)                  /*  75 */ \
  OPT(SquaredDifferenceOptions)          /*  76 */ \
  OPT(MirrorPadOptions)                  /*  77 */ \
  OPT(AbsOptions)                        /*  78 */ \
  OPT(SplitVOptions)                     /*  79 */ \
  OPT(UniqueOptions)                     /*  80 */ \
  OPT(ReverseV2Options)                  /*  81 */ \
  OPT(AddNOptions)                       /*  82 */ \
  OPT(GatherNdOptions)                   /*  83 */ \
  OPT(CosOptions)                        /*  84 */ \
  OPT(WhereOptions)                      /*  85 */ \
  OPT(RankOptions)                       /*  86 */ \
  OPT(ReverseSequenceOptions)            /*  87 */ \
  OPT(MatrixDiagOptions)                 /*  88 */ \
  OPT(QuantizeOptions)                   /*  89 */ \
  OPT(MatrixSetDiagOptions)              /*  90 */ \
  OPT(HardSwishOptions)                  /*  91 */ \
  OPT(IfOptions)                         /*  92 */ \
  OPT(WhileOptions)                      /*  93 */ \
  OPT(DepthToSpaceOptions)               /*  94 */ \
  OPT(NonMaxSuppressionV4Options)        /*  95 */ \
  OPT(NonMaxSuppressionV5Options)        /*  96 */ \
  OPT(ScatterNdOptions)                  /*  97 */ \
  OPT(SelectV2Options)                   /*  98 */ \
  OPT(DensifyOptions)                    /*  99 */ \
  OPT(SegmentSumOptions)                 /* 100 */ \
  OPT(BatchMatMulOptions)                /* 101 */ \
  OPT(CumsumOptions)                     /* 102 */ \
  OPT(CallOnceOptions)                   /* 103 */ \
  OPT(BroadcastToOptions)                /* 104 */ \
  OPT(Rfft2dOptions)                     /* 105 */ \
  OPT(Conv3DOptions)                     /* 106 */ \
  OPT(HashtableOptions)                  /* 107 */ \
  OPT(HashtableFindOptions)              /* 108 */ \
  OPT(HashtableImportOptions)            /* 109 */ \
  OPT(HashtableSizeOptions)              /* 110 */ \
  OPT(VarHandleOptions)                  /* 111 */ \
  OPT(ReadVariableOptions)               /* 112 */ \
  OPT(AssignVariableOptions)             /* 113 */ \
  OPT(RandomOptions)                     /* 114 */ \
  OPT(BucketizeOptions)                  /* 115 */ \
  OPT(GeluOptions)                       /* 116 */ \
  OPT(DynamicUpdateSliceOptions)         /* 117 */ \
  OPT(UnsortedSegmentProdOptions)        /* 118 */ \
  OPT(UnsortedSegmentMaxOptions)         /* 119 */ \
  OPT(UnsortedSegmentMinOptions)         /* 120 */ \
  OPT(UnsortedSegmentSumOptions)         /* 121 */ \
  OPT(ATan2Options)                      /* 122 */ \
  OPT(SignOptions)                       /* 123 */ \
  OPT(BitcastOptions)                    /* 124 */ \
  OPT(BitwiseXorOptions)                 /* 125 */ \
  OPT(RightShiftOptions)                 /* 126 */ \
  /* end of the list */
// clang-format on

#endif  // TFLM_ARENA_MODEL_BUILTIN_OPTIONS_LIST_H_
