package bp
import ("os";"testing";"github.com/google/pprof/profile";"github.com/emberscope/emberscope/pkg/flame";"github.com/emberscope/emberscope/pkg/pprofconv")
func BenchmarkX(b *testing.B){
	var ps []*profile.Profile
	for i:=0;i<50;i++{ f:="/work/shared/parca/pushed-profiles/bench-sort.cpu.redated.pb.gz"; if i%2==1 {f="/work/shared/parca/pushed-profiles/labeled.cpu.redated.pb.gz"}; d,_:=os.ReadFile(f); p,_:=profile.ParseData(d); ps=append(ps,p)}
	for b.Loop(){ m:=pprofconv.NewMerger(flame.New()); for _,p:=range ps{ m.Add(p,1)}; m.Flush()}
}
