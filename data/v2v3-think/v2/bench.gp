set terminal pngcairo noenhanced size 1800,980 font 'Sans,10'
set output '/work/main/data/v2v3-think/v2/bench.png'
set multiplot layout 2,3 title 'shallow_idle benchmark: off, auto (median, bars: min-max over repetitions)'
set style fill solid 0.8 border -1
set grid ytics
set key top left
set style data histogram
set style histogram errorbars gap 1 lw 1
set logscale y
set ylabel 'I/O latency, submission to completion (us)'
set title 'governor menu: qd1-t0us latency per configuration'
plot '/work/main/data/v2v3-think/v2/plot-data/lat-menu.dat' using 2:3:4:xtic(1) title 'p50' lc rgb '#4e79a7', \
     '' using 5:6:7 title 'p99' lc rgb '#f28e2b', \
     '' using 8:9:10 title 'p99.9' lc rgb '#e15759'
set style histogram clustered gap 1
set xtics rotate by -15
set title 'governor menu: p99 per workload'
set ylabel 'p99 I/O latency (us)'
plot '/work/main/data/v2v3-think/v2/plot-data/p99-menu.dat' using 2:xtic(1) title 'off', '/work/main/data/v2v3-think/v2/plot-data/p99-menu.dat' using 3:xtic(1) title 'auto'
set xtics norotate
unset logscale y
set style histogram rowstacked
set yrange [0:105]
set ylabel 'share of idle time (%)'
set key outside right top vertical
set title 'governor menu: idle states during qd1-t0us, and C6 share in the 1 s after'
plot '/work/main/data/v2v3-think/v2/plot-data/res-menu.dat' using 2:xtic(1) title 'POLL', '/work/main/data/v2v3-think/v2/plot-data/res-menu.dat' using 3:xtic(1) title 'C1', '/work/main/data/v2v3-think/v2/plot-data/res-menu.dat' using 4:xtic(1) title 'C1E', '/work/main/data/v2v3-think/v2/plot-data/res-menu.dat' using 5:xtic(1) title 'C6', '/work/main/data/v2v3-think/v2/plot-data/res-menu.dat' using ($0):6 with points pt 7 ps 2 lc rgb 'black' title 'C6 after (%)'
set yrange [*:*]
set key inside top left
set style data histogram
set style histogram errorbars gap 1 lw 1
set logscale y
set ylabel 'I/O latency, submission to completion (us)'
set title 'governor teo: qd1-t0us latency per configuration'
plot '/work/main/data/v2v3-think/v2/plot-data/lat-teo.dat' using 2:3:4:xtic(1) title 'p50' lc rgb '#4e79a7', \
     '' using 5:6:7 title 'p99' lc rgb '#f28e2b', \
     '' using 8:9:10 title 'p99.9' lc rgb '#e15759'
set style histogram clustered gap 1
set xtics rotate by -15
set title 'governor teo: p99 per workload'
set ylabel 'p99 I/O latency (us)'
plot '/work/main/data/v2v3-think/v2/plot-data/p99-teo.dat' using 2:xtic(1) title 'off', '/work/main/data/v2v3-think/v2/plot-data/p99-teo.dat' using 3:xtic(1) title 'auto'
set xtics norotate
unset logscale y
set style histogram rowstacked
set yrange [0:105]
set ylabel 'share of idle time (%)'
set key outside right top vertical
set title 'governor teo: idle states during qd1-t0us, and C6 share in the 1 s after'
plot '/work/main/data/v2v3-think/v2/plot-data/res-teo.dat' using 2:xtic(1) title 'POLL', '/work/main/data/v2v3-think/v2/plot-data/res-teo.dat' using 3:xtic(1) title 'C1', '/work/main/data/v2v3-think/v2/plot-data/res-teo.dat' using 4:xtic(1) title 'C1E', '/work/main/data/v2v3-think/v2/plot-data/res-teo.dat' using 5:xtic(1) title 'C6', '/work/main/data/v2v3-think/v2/plot-data/res-teo.dat' using ($0):6 with points pt 7 ps 2 lc rgb 'black' title 'C6 after (%)'
set yrange [*:*]
set key inside top left
unset multiplot
