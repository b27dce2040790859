<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CasePanel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="112"/>
        <source>af-open graph</source>
        <translation>开启融合的图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="112"/>
        <source>af-close graph</source>
        <translation>关闭融合的图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="113"/>
        <source>af-open dumps</source>
        <translation>开启融合的 dump 目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="113"/>
        <source>af-close dumps</source>
        <translation>关闭融合的 dump 目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="114"/>
        <source>NPY A</source>
        <translation>NPY 文件 A</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="114"/>
        <source>NPY B</source>
        <translation>NPY 文件 B</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="118"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="119"/>
        <source>Graphs and dump folders (mode 1)</source>
        <translation>图与 dump 目录（模式1）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="120"/>
        <source>Two NPY files (mode 2)</source>
        <translation>两个 NPY 文件（模式2）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="121"/>
        <source>Swap graphs</source>
        <translation>交换两个图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="122"/>
        <source>Swap dumps</source>
        <translation>交换两个 dump 目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="123"/>
        <source>Compare fused op inputs too</source>
        <translation>同时比较融合算子输入</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="124"/>
        <source>every step</source>
        <translation>全部步骤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="125"/>
        <source>Analyse</source>
        <translation>分析</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="126"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="128"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="130"/>
        <source>Drop a run folder, dump folders, graphs or two NPY files here.</source>
        <translation>将运行目录、dump 目录、图文件或两个 NPY 文件拖放到此处。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="193"/>
        <source>Choose a dump folder</source>
        <translation>选择 dump 目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="195"/>
        <source>NPY files (*.npy)</source>
        <translation>NPY 文件 (*.npy)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="196"/>
        <source>GE graphs (*.json *.txt *.pbtxt);;All files (*)</source>
        <translation>GE 图 (*.json *.txt *.pbtxt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/case_panel.py" line="197"/>
        <source>Choose a file</source>
        <translation>选择文件</translation>
    </message>
</context>
<context>
    <name>FilterBar</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="51"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="52"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="53"/>
        <source>Filter by op, file, dtype, message…</source>
        <translation>按算子、文件、数据类型、消息过滤…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="54"/>
        <source>Go to first divergence</source>
        <translation>跳转到首个劣化点</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="58"/>
        <source>All verdicts</source>
        <translation>全部结论</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="59"/>
        <source>Failing (culprit or propagated)</source>
        <translation>不通过（根因或传播）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/filter_bar.py" line="77"/>
        <source>All statuses</source>
        <translation>全部状态</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="152"/>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="152"/>
        <source>Graph</source>
        <translation>图</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="152"/>
        <source>ATT</source>
        <translation>ATT</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="152"/>
        <source>Runner</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="154"/>
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="155"/>
        <source>Thresholds</source>
        <translation>阈值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="156"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="157"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="158"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="159"/>
        <source>&amp;Analysis</source>
        <translation>分析(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="160"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="161"/>
        <source>Recent cases</source>
        <translation>最近的用例</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="163"/>
        <source>&amp;Open files…</source>
        <translation>打开文件(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="163"/>
        <source>Open &amp;folder…</source>
        <translation>打开目录(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="164"/>
        <source>Open &amp;case file…</source>
        <translation>打开用例文件(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="164"/>
        <source>&amp;Save case as…</source>
        <translation>用例另存为(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="165"/>
        <source>&amp;Export table (CSV, JSON, xlsx)…</source>
        <translation>导出表格（CSV、JSON、xlsx）(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="166"/>
        <source>Export table &amp;picture (PNG, SVG)…</source>
        <translation>导出表格图片（PNG、SVG）(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="167"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="167"/>
        <source>&amp;Analyse</source>
        <translation>分析(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="168"/>
        <source>&amp;Cancel analysis</source>
        <translation>取消分析(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="168"/>
        <source>Go to first &amp;divergence</source>
        <translation>跳转到首个劣化点(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="169"/>
        <source>&amp;About %1</source>
        <translation>关于 %1(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="173"/>
        <source>System language</source>
        <translation>跟随系统语言</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="192"/>
        <source>Opened %n item(s)</source>
        <translation>
            <numerusform>已打开 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="249"/>
        <source>Parsing graphs and indexing dump folders…</source>
        <translation>正在解析图并索引 dump 目录…</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="253"/>
        <source>Indexed %1 files</source>
        <translation>已索引 %1 个文件</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="257"/>
        <source>Indexed %1 files · compared %2 of %3 pairs</source>
        <translation>已索引 %1 个文件 · 已比较 %2/%3 对</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="268"/>
        <source>%1 rows; first divergence: %2</source>
        <translation>共 %1 行；首个劣化点：%2</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="283"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="313"/>
        <source>Open graphs or NPY files</source>
        <translation>打开图或 NPY 文件</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="314"/>
        <source>Graphs and NPYs (*.json *.txt *.pbtxt *.npy *.afcase)</source>
        <translation>图与 NPY (*.json *.txt *.pbtxt *.npy *.afcase)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="319"/>
        <source>Open a run or dump folder</source>
        <translation>打开运行目录或 dump 目录</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="324"/>
        <source>Open case</source>
        <translation>打开用例</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="324"/>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="329"/>
        <source>Cases (*.afcase)</source>
        <translation>用例 (*.afcase)</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="329"/>
        <source>Save case</source>
        <translation>保存用例</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="334"/>
        <source>Export table</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="340"/>
        <source>Export table picture</source>
        <translation>导出表格图片</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="354"/>
        <source>A workbench for CANN Autofuse: fusion precision and ATT tiling analysis.</source>
        <translation>CANN 自动融合调试工作台：融合精度与 ATT 切分分析。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/main_window.py" line="357"/>
        <source>About %1</source>
        <translation>关于 %1</translation>
    </message>
</context>
<context>
    <name>PerfPanel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="52"/>
        <source>Chosen operator: every case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="52"/>
        <source>All operators (perf_formula.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="53"/>
        <source>Click a case on the canvas to see its tiling values and log lines.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="64"/>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="67"/>
        <source>Zoom +</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="68"/>
        <source>Zoom −</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="69"/>
        <source>Export PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="70"/>
        <source>Export SVG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="197"/>
        <source>Export canvas as PNG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/perf_panel.py" line="202"/>
        <source>Export canvas as SVG</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PrecisionColumns</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="31"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="32"/>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="33"/>
        <source>Mean abs err</source>
        <translation>平均绝对误差</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="34"/>
        <source>RMSE</source>
        <translation>均方根误差</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="35"/>
        <source>Rel. Euclidean</source>
        <translation>相对欧氏距离</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="36"/>
        <source>Within 0.1%</source>
        <translation>千分之一通过率</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="37"/>
        <source>Within 0.5%</source>
        <translation>千分之五通过率</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="38"/>
        <source>NaN fused</source>
        <translation>融合侧 NaN</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="39"/>
        <source>Inf fused</source>
        <translation>融合侧 Inf</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="40"/>
        <source>NaN origin</source>
        <translation>原始侧 NaN</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="41"/>
        <source>Inf origin</source>
        <translation>原始侧 Inf</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="42"/>
        <source>NaN/Inf mismatch</source>
        <translation>NaN/Inf 不一致</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="43"/>
        <source>Elements</source>
        <translation>元素个数</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="44"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="45"/>
        <source>Fused op</source>
        <translation>融合算子名</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="46"/>
        <source>Index</source>
        <translation>索引</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="47"/>
        <source>Origin op</source>
        <translation>原算子名</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="48"/>
        <source>Origin index</source>
        <translation>原索引</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="49"/>
        <source>Cosine</source>
        <translation>余弦相似度</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="50"/>
        <source>Max abs err</source>
        <translation>绝对误差最大值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="51"/>
        <source>Max rel err</source>
        <translation>相对误差最大值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="52"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="53"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="54"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="55"/>
        <source>Fused dtype</source>
        <translation>融合侧数据类型</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="56"/>
        <source>Origin dtype</source>
        <translation>原始侧数据类型</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="57"/>
        <source>Fused shape</source>
        <translation>融合侧形状</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/columns.py" line="58"/>
        <source>Origin shape</source>
        <translation>原始侧形状</translation>
    </message>
</context>
<context>
    <name>PrecisionTableView</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/table_view.py" line="48"/>
        <source>Copy rows</source>
        <translation>复制行</translation>
    </message>
</context>
<context>
    <name>PrecisionWorkbench</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/workbench.py" line="74"/>
        <location filename="../../app/autofuse_studio/ui/precision/workbench.py" line="88"/>
        <source>Select a row to see its tensors here.</source>
        <translation>选择一行以在此查看其张量。</translation>
    </message>
</context>
<context>
    <name>SummaryPanel</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="66"/>
        <source>Best result per operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="66"/>
        <source>All schedule results (-a)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="69"/>
        <source>Filter operators…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="71"/>
        <source>Parse Status in CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="88"/>
        <source>Status:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="92"/>
        <source>Export CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="92"/>
        <source>Export xlsx…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="123"/>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="124"/>
        <source>Problems only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="147"/>
        <source>{shown} of {total} row(s) shown; {problems} with parse problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="160"/>
        <source>Exporting summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/summary_panel.py" line="166"/>
        <source>Export summary</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TaskStrip</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/att/jobs.py" line="30"/>
        <source>Cancel</source>
        <translation type="unfinished">取消</translation>
    </message>
</context>
<context>
    <name>ThresholdsEditor</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="87"/>
        <source>Default limits</source>
        <translation>默认阈值</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="88"/>
        <source>Cosine ≥</source>
        <translation>余弦相似度 ≥</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="88"/>
        <source>Max abs err ≤</source>
        <translation>绝对误差最大值 ≤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="88"/>
        <source>Max rel err ≤</source>
        <translation>相对误差最大值 ≤</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="92"/>
        <source>not checked</source>
        <translation>不检查</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="93"/>
        <source>Per dtype (origin side)</source>
        <translation>按数据类型（原始侧）</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="95"/>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="95"/>
        <source>Cosine</source>
        <translation>余弦相似度</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="95"/>
        <source>Max abs</source>
        <translation>绝对误差</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="95"/>
        <source>Max rel</source>
        <translation>相对误差</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="96"/>
        <source>Add dtype</source>
        <translation>添加数据类型</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="97"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/thresholds_editor.py" line="98"/>
        <source>Reset to defaults</source>
        <translation>恢复默认</translation>
    </message>
</context>
<context>
    <name>VerdictLegend</name>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/legend.py" line="15"/>
        <source>Fails while its inputs are fine: this op broke precision.</source>
        <translation>输入正常而输出不通过：该算子导致了精度劣化。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/legend.py" line="17"/>
        <source>Fails because an upstream op already failed.</source>
        <translation>上游算子已不通过，误差由此传播。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/legend.py" line="19"/>
        <source>Within the thresholds.</source>
        <translation>在阈值范围内。</translation>
    </message>
    <message>
        <location filename="../../app/autofuse_studio/ui/precision/legend.py" line="21"/>
        <source>Not compared (no mapping, missing file, skipped...).</source>
        <translation>未比较（无映射、文件缺失、已跳过…）。</translation>
    </message>
</context>
</TS>
